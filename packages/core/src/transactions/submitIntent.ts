import type { ApprovalRecord, PendingApproval } from '../approvals/types.js'
import { chainInfoOf } from '../chain/chainInfoOf.js'
import type { AgentWalletContext } from '../context.js'
import { boundEffects } from '../effects/boundEffects.js'
import { toStoredEffects } from '../effects/toStoredEffects.js'
import { NotFoundError } from '../errors/errors.js'
import { appendEvent } from '../events/appendEvent.js'
import { requestHash } from '../idempotency/requestHash.js'
import { type IdempotencyRecord, idempotencyRecordId } from '../idempotency/types.js'
import { assertSameRequest, assertValidKey } from '../idempotency/withIdempotency.js'
import { blockedError } from '../intents/blockedError.js'
import { intentOfDraft } from '../intents/intentOfDraft.js'
import type { IntentDraft } from '../intents/types.js'
import { auditDecision } from '../policy/auditDecision.js'
import { type IntentDecision, recordedDecision } from '../policy/evaluateIntent.js'
import { judgingLocks } from '../policy/judgingLocks.js'
import type { PolicyDecision } from '../policy/types.js'
import type { Principal } from '../principals/types.js'
import type { StorageTx } from '../storage/types.js'
import { withLock } from '../storage/withLock.js'
import type { WalletRecord } from '../wallets/types.js'
import { type CarrierName, carrierFor, carrierNamed } from './carrier.js'
import { commitIntent } from './commitIntent.js'
import { judgeIntent } from './judgeIntent.js'
import { recordGrants } from './recordGrants.js'
import { appendHitl, txPayload } from './transitions.js'
import type {
  ClosedTransaction,
  PendingApprovalTransaction,
  QueuedTransaction,
  TransactionRecord,
  UnpausedTransaction,
  UnsignedQueuedTransaction,
} from './types.js'

/** `replayed`: the answer of an earlier request with the same idempotency key. */
export type SubmitResult =
  | {
      status: 'pending_approval'
      transaction: PendingApprovalTransaction
      approval: ApprovalRecord
      replayed?: true
    }
  | { status: 'queued'; transaction: QueuedTransaction; approval?: undefined; replayed?: true }
  | { status: SettledStatus; transaction: TransactionRecord; approval?: undefined; replayed?: true }

/** Every status but `pending_approval`, which always comes with its approval, and `queued`. */
type SettledStatus = Exclude<TransactionRecord['status'], 'pending_approval' | 'queued'>

/** The answer for a record not paused (a paused one answers with its approval). */
function resultOf(record: UnpausedTransaction, replayed?: true): SubmitResult {
  const again = replayed ? { replayed } : {}
  if (record.status === 'queued') return { status: 'queued', transaction: record, ...again }
  return { status: record.status, transaction: record, ...again }
}

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
  // The chain's family decides the carrier; the carrier reads the chain its own way.
  const { family } = chainInfoOf(ctx.chains, draft.chain)
  const carrier = carrierNamed(ctx, carrierFor(wallet, draft.kind, family))
  const chain = carrier.chainOf(ctx.chains, draft.chain)
  // What needs no lock runs while this send waits for the wallet's: the carrier's own (a gas
  // estimate; a smart wallet deployed before its batch is simulated through its code), the effects.
  const ahead = await carrier.ahead(ctx, chain, wallet, draft)
  const effects = carrier.effects(ctx, chain, wallet, draft)
  effects.catch(() => undefined) // awaited under the lock, or dropped with an earlier error
  // Under the lock, the wallet's spends and nonce are read and the intent committed without waiting
  // for the disk (where the storage syncs after applying): the lock goes once the intent is applied,
  // and the broadcast, the answer and any error wait for the sync (see `Storage.unsynced`).
  const unsynced = ctx.storage.unsynced
  const accepted = await withLock(
    ctx.storage,
    await judgingLocks(ctx, wallet),
    async (): Promise<Accepted> => {
      if (idempotency) {
        const replayed = await replay(ctx, idempotency)
        if (replayed) return { answer: replayed }
      }
      const intent = intentOfDraft(draft, chain.name, wallet.address, await effects)
      // Funds are checked before anything is saved, for a paused intent too: an intent we cannot pay
      // is not accepted, nor put before an approver. (A blocked one is recorded as is.)
      const { decision, gas, allocated, short } = await judgeIntent(
        ctx,
        chain,
        carrier,
        wallet,
        intent,
        callOf(draft),
        { ahead, reader: unsynced?.reader },
      )
      if (short) {
        // Refused for want of money, nothing saved: its decision still enters the trail.
        await ctx.storage.transaction([], async (tx) =>
          auditDecision(ctx, tx, wallet.tenantId, decision, { walletId: wallet.id }),
        )
        throw short
      }
      const judged = newIntent(
        ctx,
        principal,
        wallet,
        { chainId: chain.chainId, carriedBy: carrier.name },
        draft,
        decision,
      )
      const { approval } = judged
      const { record: saved, sending } = await commitIntent(ctx, chain, judged.record, gas, {
        write: 'insert',
        allocated,
        unsynced,
        alongside: async (tx, saved) => {
          await options.beforeCommit?.(tx, saved)
          if (approval) await tx.insert('approvals', approval)
          if (idempotency) await tx.insert('idempotency', idempotencyRecord(idempotency, saved))
          await recordGrants(tx, saved)
          auditDecision(ctx, tx, saved.tenantId, decision, {
            walletId: saved.walletId,
            transactionId: saved.id,
            approvalId: approval?.id,
          })
          if (saved.status === 'blocked') {
            appendEvent(ctx, tx, saved.tenantId, 'policy.blocked', {
              ...txPayload(saved),
              ruleId: decision.ruleId,
              reason: decision.reason,
            })
          }
          if (approval) appendHitl(ctx, tx, saved, approval)
        },
      })
      if (saved.status === 'blocked') throw blockedError(saved)
      if (judged.approval)
        return {
          answer: { status: 'pending_approval', transaction: judged.record, approval: judged.approval },
        }
      // Durable, so the lock goes: the broadcast waits in the wallet's lane, in nonce order, while the
      // wallet's next send is evaluated and signed.
      if (sending) return { sending }
      // Accepted and reserved; its carrier takes nothing out now: its caller has it settled (the x402 payee), outside the wallet lock.
      return { answer: resultOf(judged.record) }
    },
  ).catch(async (error: unknown) => {
    // An error may come of what was read unsynced: it leaves once that is on disk, as an answer would.
    await unsynced?.synced().catch(() => undefined)
    throw error
  })
  if ('answer' in accepted) return accepted.answer
  return resultOf(await accepted.sending)
}

/** What the locked part of `submitIntent` ends with: an answer, or a broadcast to await unlocked. */
type Accepted = { answer: SubmitResult } | { sending: Promise<UnpausedTransaction> }

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
      request: options.request ?? {
        ...draft,
        amount: draft.amount.toString(),
        call: callOf(draft),
        calls: callsOf(draft),
      },
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
  if (record.status !== 'pending_approval') return resultOf(record, true)
  // Saved in the intent's own commit, and never deleted.
  const approval = await ctx.storage.get('approvals', record.approvalId)
  if (!approval) throw new NotFoundError('Approval', { details: { approvalId: record.approvalId } })
  return { status: 'pending_approval', transaction: record, approval, replayed: true }
}

function callOf(draft: IntentDraft): TransactionRecord['call'] {
  return { to: draft.call.to, value: draft.call.value.toString(), data: draft.call.data }
}

function callsOf(draft: IntentDraft): TransactionRecord['calls'] {
  return draft.calls?.map(({ to, value, data }) => ({ to, value: value.toString(), data }))
}

/** A new intent as judged: paused with its approval, or blocked, or accepted. */
type NewIntent =
  | { record: PendingApprovalTransaction; approval: PendingApproval }
  | { record: ClosedTransaction | UnsignedQueuedTransaction; approval?: undefined }

function newIntent(
  ctx: AgentWalletContext,
  principal: Principal,
  wallet: WalletRecord,
  { chainId, carriedBy }: { chainId: number; carriedBy: CarrierName },
  draft: IntentDraft,
  decision: IntentDecision,
): NewIntent {
  const now = ctx.now().toISOString()
  const base = {
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
    ...(decision.effects ? { effects: toStoredEffects(decision.effects) } : {}),
    call: callOf(draft),
    ...(draft.calls ? { calls: callsOf(draft) } : {}),
    carriedBy,
    policy: recordedDecision(decision),
    meta: decision.payeeAgent ? { ...draft.meta, payeeAgent: decision.payeeAgent } : draft.meta,
    createdAt: now,
    updatedAt: now,
  }
  if (decision.decision === 'deny') return { record: { ...base, status: 'blocked' } }
  if (decision.decision === 'allow') return { record: { ...base, status: 'queued' } }
  const approval = newApproval(ctx, principal, wallet, base, decision)
  return { record: { ...base, status: 'pending_approval', approvalId: approval.id }, approval }
}

function idempotencyRecord(idempotency: Idempotency, record: TransactionRecord): IdempotencyRecord {
  return {
    id: idempotency.id,
    operation: 'intent',
    requestHash: idempotency.hash,
    transactionId: record.id,
    createdAt: record.createdAt,
  }
}

function newApproval(
  ctx: AgentWalletContext,
  principal: Principal,
  wallet: WalletRecord,
  transaction: Pick<TransactionRecord, 'id' | 'effects'>,
  decision: PolicyDecision,
): PendingApproval {
  const now = ctx.now()
  return {
    id: ctx.newId('apr'),
    tenantId: wallet.tenantId,
    walletId: wallet.id,
    transactionId: transaction.id,
    ...boundEffects(transaction.effects),
    requestedBy: principal.id,
    status: 'pending',
    ruleId: decision.ruleId,
    reason: decision.reason,
    details: decision.details,
    expiresAt: new Date(now.getTime() + ctx.options.approvalTtlMs).toISOString(),
    createdAt: now.toISOString(),
  }
}
