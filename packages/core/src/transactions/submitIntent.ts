import type { ApprovalRecord } from '../approvals/types.js'
import type { AgentWalletContext } from '../context.js'
import { appendEvent } from '../events/appendEvent.js'
import { requestHash } from '../idempotency/requestHash.js'
import { type IdempotencyRecord, idempotencyRecordId } from '../idempotency/types.js'
import { assertSameRequest, assertValidKey } from '../idempotency/withIdempotency.js'
import { blockedError } from '../intents/blockedError.js'
import { intentOfDraft } from '../intents/intentOfDraft.js'
import type { IntentDraft } from '../intents/types.js'
import { evaluateIntent, type IntentDecision } from '../policy/evaluateIntent.js'
import type { PolicyDecision } from '../policy/types.js'
import type { Principal } from '../principals/types.js'
import type { StorageTx } from '../storage/types.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import type { WalletRecord } from '../wallets/types.js'
import { allocateNonce } from './allocateNonce.js'
import { enqueueBroadcast, inFlightOf } from './broadcastLane.js'
import { estimateAhead, prepareFunds } from './prepareGas.js'
import { saveSigned, signRecord } from './signAndBroadcast.js'
import { txPayload } from './transitions.js'
import { isSettledOffchain, type TransactionRecord } from './types.js'

/** `replayed`: the answer of an earlier request with the same idempotency key. */
export type SubmitResult =
  | { status: 'pending_approval'; transaction: TransactionRecord; approval: ApprovalRecord; replayed?: true }
  | { status: SettledStatus; transaction: TransactionRecord; approval?: undefined; replayed?: true }

/** Every status but `pending_approval`, which always comes with its approval. */
type SettledStatus = Exclude<TransactionRecord['status'], 'pending_approval'>

export type SubmitOptions = {
  idempotencyKey?: string | undefined
  /** The request as the caller sent it, hashed to detect a key reused for another request. */
  request?: unknown
  /** Saves what the caller keeps beside the intent, in the intent's own commit. */
  beforeCommit?: ((tx: StorageTx, record: TransactionRecord) => Promise<void>) | undefined
}

/**
 * The money path of DESIGN §4, in one lock on the wallet: window totals → policy → funds (unless
 * blocked; `insufficient_funds` saves nothing; the gas estimate was started before the lock) → for an
 * allowed intent, nonce and signature → persist the intent, reserving its spend, with its raw tx,
 * nonce, events and idempotency record in one commit (one fsync). The lock is released once that is
 * durable; the broadcast follows in the wallet's lane (`enqueueBroadcast`), in nonce order, and is
 * awaited for the answer. Every value-moving action uses it.
 * A blocked intent is recorded, then thrown as `policy_blocked`.
 */
export async function submitIntent(
  ctx: AgentWalletContext,
  principal: Principal,
  wallet: WalletRecord,
  draft: IntentDraft,
  options: SubmitOptions = {},
): Promise<SubmitResult> {
  const idempotency = idempotencyOf(principal, draft, options)
  const chain = ctx.chains.get(draft.chain)
  // The gas estimate needs no lock: it runs while this send waits for the wallet's.
  const estimate = isSettledOffchain(draft) ? undefined : estimateAhead(chain, wallet.address, callOf(draft))
  const accepted = await withLock(
    ctx.storage,
    [walletLockKey(wallet.address)],
    async (): Promise<Accepted> => {
      if (idempotency) {
        const replayed = await replay(ctx, idempotency)
        if (replayed) return { answer: replayed }
      }
      const decision = await evaluateIntent(ctx, wallet, intentOfDraft(draft, chain.name, wallet.address))
      // An allowed intent's nonce is read beside its funds (both only read, under this lock).
      const allocated =
        decision.decision === 'allow' && estimate ? allocateNonce(ctx, chain, wallet.address) : undefined
      allocated?.catch(() => undefined) // awaited by signRecord, or dropped with the funds' error
      // Gas and funds are checked before anything is saved, for a paused intent too: an intent we
      // cannot pay is not accepted, nor put before an approver. (A blocked one is recorded as is.)
      const gas =
        decision.decision === 'deny'
          ? undefined
          : await prepareFunds(chain, wallet.address, callOf(draft), draft, {
              estimate,
              inFlight: inFlightOf(ctx, chain.chainId, wallet.address),
            })
      const record = newRecord(ctx, principal, wallet, chain.chainId, draft, decision)
      const approval =
        decision.decision === 'require_approval' ? newApproval(ctx, principal, record, decision) : undefined
      if (approval) record.approvalId = approval.id
      // An allowed intent is signed before anything is saved, so intent, raw tx and nonce are one commit.
      // An x402 payment is settled by its payee, never signed here as a tx (isSettledOffchain).
      const signing =
        record.status === 'queued' && !isSettledOffchain(record)
          ? await signRecord(ctx, chain, record, gas!, allocated)
          : undefined

      await ctx.storage.transaction([], async (tx) => {
        if (signing) await saveSigned(tx, signing, 'insert')
        else await tx.insert('transactions', record)
        await options.beforeCommit?.(tx, record)
        if (approval) await tx.insert('approvals', approval)
        if (idempotency) {
          const saved: IdempotencyRecord = {
            id: idempotency.id,
            operation: 'intent',
            requestHash: idempotency.hash,
            transactionId: record.id,
            createdAt: record.createdAt,
          }
          await tx.insert('idempotency', saved)
        }
        if (record.status === 'blocked') {
          appendEvent(ctx, tx, record.tenantId, 'policy.blocked', {
            ...txPayload(record),
            ruleId: decision.ruleId,
            reason: decision.reason,
          })
        }
        if (approval) {
          appendEvent(ctx, tx, record.tenantId, 'policy.hitl', {
            ...txPayload(record),
            approvalId: approval.id,
            expiresAt: approval.expiresAt,
            ruleId: approval.ruleId,
            reason: approval.reason,
          })
        }
      })
      if (record.status === 'blocked') throw blockedError(record)
      if (approval) return { answer: { status: 'pending_approval', transaction: record, approval } }
      // Accepted and reserved; its caller has it settled (the x402 payee), outside the wallet lock.
      if (!signing) return { answer: { status: 'queued', transaction: record } }
      // Durable, so the lock goes: the broadcast waits in the wallet's lane, in nonce order, while the
      // wallet's next send is evaluated and signed.
      return { sending: enqueueBroadcast(ctx, chain, signing) }
    },
  )
  if ('answer' in accepted) return accepted.answer
  const sent = await accepted.sending
  return { status: sent.status as SettledStatus, transaction: sent }
}

/** What the locked part of `submitIntent` ends with: an answer, or a broadcast to await unlocked. */
type Accepted = { answer: SubmitResult } | { sending: Promise<TransactionRecord> }

type Idempotency = { id: string; hash: string }

function idempotencyOf(
  principal: Principal,
  draft: IntentDraft,
  options: SubmitOptions,
): Idempotency | undefined {
  if (options.idempotencyKey === undefined) return undefined
  assertValidKey(options.idempotencyKey)
  return {
    id: idempotencyRecordId(principal.tenantId, principal.id, options.idempotencyKey),
    hash: requestHash({
      operation: 'intent',
      request: options.request ?? { ...draft, amount: draft.amount.toString(), call: callOf(draft) },
    }),
  }
}

/**
 * The answer an earlier intent under this idempotency key gave, read before the caller does any work
 * of its own (an x402 payment fetches its resource first); undefined when the key is new. A key reused
 * for another request is `idempotency_conflict`, a blocked intent `policy_blocked`, as in `submitIntent`.
 * @example const earlier = await replayIntent(ctx, principal, { idempotencyKey, request })
 */
export async function replayIntent(
  ctx: AgentWalletContext,
  principal: Principal,
  options: SubmitOptions & { idempotencyKey: string; request: unknown },
): Promise<SubmitResult | undefined> {
  assertValidKey(options.idempotencyKey)
  return replay(ctx, {
    id: idempotencyRecordId(principal.tenantId, principal.id, options.idempotencyKey),
    hash: requestHash({ operation: 'intent', request: options.request }),
  })
}

async function replay(ctx: AgentWalletContext, idempotency: Idempotency): Promise<SubmitResult | undefined> {
  const existing = await ctx.storage.get('idempotency', idempotency.id)
  if (!existing) return undefined
  assertSameRequest(existing, idempotency.hash)
  const record = await ctx.storage.get('transactions', existing.transactionId ?? '')
  if (!record) return undefined
  if (record.status === 'blocked') throw blockedError(record)
  const approval = record.approvalId ? await ctx.storage.get('approvals', record.approvalId) : undefined
  if (record.status === 'pending_approval' && approval)
    return { status: 'pending_approval', transaction: record, approval, replayed: true }
  return { status: record.status as SettledStatus, transaction: record, replayed: true }
}

function callOf(draft: IntentDraft): TransactionRecord['call'] {
  return { to: draft.call.to, value: draft.call.value.toString(), data: draft.call.data }
}

function newRecord(
  ctx: AgentWalletContext,
  principal: Principal,
  wallet: WalletRecord,
  chainId: number,
  draft: IntentDraft,
  decision: IntentDecision,
): TransactionRecord {
  const now = ctx.now().toISOString()
  const status =
    decision.decision === 'deny'
      ? 'blocked'
      : decision.decision === 'require_approval'
        ? 'pending_approval'
        : 'queued'
  return {
    id: ctx.newId('tx'),
    tenantId: wallet.tenantId,
    walletId: wallet.id,
    requestedBy: principal.id,
    chain: draft.chain,
    chainId,
    kind: draft.kind,
    from: wallet.address,
    to: draft.to,
    asset: draft.asset,
    amount: draft.amount.toString(),
    ...(draft.via ? { via: draft.via } : {}),
    ...(decision.usd ? { usd: decision.usd } : {}),
    call: callOf(draft),
    status,
    policy: {
      decision: decision.decision,
      ruleId: decision.ruleId,
      ruleType: decision.ruleType,
      reason: decision.reason,
      details: decision.details,
    },
    meta: decision.payeeAgent ? { ...draft.meta, payeeAgent: decision.payeeAgent } : draft.meta,
    createdAt: now,
    updatedAt: now,
  }
}

function newApproval(
  ctx: AgentWalletContext,
  principal: Principal,
  record: TransactionRecord,
  decision: PolicyDecision,
): ApprovalRecord {
  const now = ctx.now()
  return {
    id: ctx.newId('apr'),
    tenantId: record.tenantId,
    walletId: record.walletId,
    transactionId: record.id,
    requestedBy: principal.id,
    status: 'pending',
    ruleId: decision.ruleId,
    reason: decision.reason,
    details: decision.details,
    expiresAt: new Date(now.getTime() + ctx.options.approvalTtlMs).toISOString(),
    createdAt: now.toISOString(),
  }
}
