import type { Address, Hex } from 'viem'
import type { PendingApproval } from '../approvals/types.js'
import { appendAudit } from '../audit/appendAudit.js'
import type { TypedDataSigned } from '../audit/typedDataSigned.js'
import type { AgentWalletContext } from '../context.js'
import { effectsDiffer } from '../effects/effectsDiffer.js'
import type { EffectLog } from '../effects/effectsOfLogs.js'
import { fromStoredEffects } from '../effects/fromStoredEffects.js'
import { isSafeExecution } from '../effects/isSafeExecution.js'
import { receiptEffects } from '../effects/receiptEffects.js'
import { toStoredEffects } from '../effects/toStoredEffects.js'
import type { Effect, StoredEffect } from '../effects/types.js'
import type { BaseError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import type { StorageTx } from '../storage/types.js'
import type {
  FailedTransaction,
  MinedIn,
  MinedTransaction,
  MinedUserOperation,
  QueuedTransaction,
  SettledOffchainTransaction,
  Signature,
  SignedQueuedTransaction,
  SignedVersion,
  SubmittedTransaction,
  SubmittedUserOperation,
  TransactionRecord,
  TxStuck,
  UnsignedQueuedTransaction,
} from './types.js'

// Every step of a transaction's lifecycle after it is made (`submitIntent`, `nonceFiller`), but
// those an approver decides (approvals/transitions.ts): each writes the record it moves with its
// event in one commit. queued → submitted is also batched off the send's path (submittedBatch.ts).

/** A transaction that can still fail: accepted and not yet mined. */
export type ActiveTransaction = QueuedTransaction | SubmittedTransaction | SubmittedUserOperation

/**
 * `policy.hitl`, in `tx`: an intent waits for a human, with what the approver will be shown.
 * @example if (approval) appendHitl(ctx, tx, saved, approval)
 */
export function appendHitl(
  ctx: AgentWalletContext,
  tx: StorageTx,
  record: TransactionRecord,
  approval: Pick<PendingApproval, 'id' | 'expiresAt' | 'ruleId' | 'reason' | 'effects'>,
): void {
  appendEvent(ctx, tx, record.tenantId, 'policy.hitl', {
    ...txPayload(record),
    approvalId: approval.id,
    expiresAt: approval.expiresAt,
    ruleId: approval.ruleId,
    reason: approval.reason,
    ...(approval.effects ? { effects: approval.effects } : {}),
  })
}

/** The event payload every tx event carries. */
export function txPayload(record: TransactionRecord) {
  return {
    transactionId: record.id,
    walletId: record.walletId,
    chain: record.chain,
    from: record.from,
    to: record.to,
    hash: record.hash,
    status: record.status,
    kind: record.kind,
    asset: record.asset.symbol,
    amount: record.amount,
  }
}

/**
 * queued → failed before reaching a block. With `releaseNonce`, the nonce goes back to the pool:
 * only safe while holding the wallet lock and when no later nonce was allocated.
 */
export async function markFailed(
  ctx: AgentWalletContext,
  record: ActiveTransaction,
  error: BaseError,
  options: { releaseNonce?: { nonceId: string } | undefined } = {},
): Promise<FailedTransaction> {
  return ctx.storage.transaction([], async (tx) => {
    if (options.releaseNonce && record.nonce !== undefined)
      await releaseNonce(tx, options.releaseNonce.nonceId, record.nonce)
    return writeFailed(ctx, tx, record, error)
  })
}

/**
 * Writes queued (or submitted) → failed, with its `tx.failed` event, in `tx`: the record as saved.
 * `nonceSettled`: the chain already shows another tx mined at its nonce (default: not yet).
 * @example const failed = await writeFailed(ctx, tx, record, error)
 */
export async function writeFailed(
  ctx: AgentWalletContext,
  tx: StorageTx,
  record: ActiveTransaction,
  error: BaseError,
  options: { nonceSettled?: boolean | undefined } = {},
): Promise<FailedTransaction> {
  const next: FailedTransaction = {
    ...record,
    status: 'failed',
    error: { code: error.code, message: error.shortMessage },
    // A signed tx is failed only on the node's definite refusal, yet the chain has the last word: the
    // tracker watches its nonce until another tx is mined at it (`recheckFailed`).
    ...(record.rawTx !== undefined ? { nonceSettled: options.nonceSettled ?? false } : {}),
    updatedAt: ctx.now().toISOString(),
  }
  await tx.put('transactions', next)
  appendEvent(ctx, tx, next.tenantId, 'tx.failed', { ...txPayload(next), reason: error.shortMessage })
  return next
}

async function releaseNonce(tx: StorageTx, nonceId: string, nonce: number): Promise<void> {
  const stored = await tx.get('nonces', nonceId)
  if (stored?.next === nonce + 1) await tx.put('nonces', { id: nonceId, next: nonce })
}

/**
 * submitted → confirmed or failed, from a receipt: the record to save with `saveMined`. Its block's
 * hash is kept, and its finality is `pending` until the tracker sees it `finalityDepth` blocks deep.
 */
export function minedRecord(
  ctx: AgentWalletContext,
  record: SubmittedTransaction,
  receipt: {
    status: 'success' | 'reverted'
    blockNumber: bigint
    blockHash: Hex
    gasUsed: bigint
    logs?: readonly EffectLog[] | undefined
  },
): MinedTransaction | FailedTransaction {
  const now = ctx.now().toISOString()
  const base = {
    ...record,
    blockNumber: Number(receipt.blockNumber),
    blockHash: receipt.blockHash,
    gasUsed: receipt.gasUsed.toString(),
    finality: 'pending' as const,
    ...(receipt.status === 'success' && receipt.logs && !record.cancels
      ? { receiptEffects: toStoredEffects(actualEffectsOf(ctx, record, receipt.logs)) }
      : {}),
    updatedAt: now,
  }
  // The cancel took the nonce: the wallet paid its gas, the intent's call never ran.
  if (receipt.status === 'success' && record.cancels)
    return { ...base, status: 'failed', error: { code: 'cancelled', message: cancelledMessage } }
  return receipt.status === 'success'
    ? { ...base, status: 'confirmed', confirmedAt: now }
    : {
        ...base,
        status: 'failed',
        error: { code: 'transaction_failed', message: 'The transaction reverted' },
      }
}

/**
 * What the receipt's logs and the top call show the tx (or a smart wallet's op: its own logs) did to
 * the account that paid (the wallet, or its Safe).
 * @example const actual = toStoredEffects(actualEffectsOf(ctx, record, receipt.logs))
 */
export function actualEffectsOf(
  ctx: AgentWalletContext,
  record: Pick<TransactionRecord, 'chain' | 'from' | 'via' | 'call' | 'effects'>,
  logs: readonly EffectLog[],
) {
  const { to, value } = record.call
  return receiptEffects(
    ctx.chains.get(record.chain),
    {
      holders: holdersOf(record),
      from: record.from,
      call: { to, value: BigInt(value) },
      predicted: record.effects ? fromStoredEffects(record.effects) : undefined,
    },
    logs,
  )
}

/** Whose assets a tx moved, as they were predicted: its Safe (`via`), or the wallet and, for a raw `execTransaction`, the Safe too. */
function holdersOf(record: Pick<TransactionRecord, 'from' | 'via' | 'call'>): Address[] {
  if (record.via) return [record.via]
  return isSafeExecution(record.call.data) ? [record.from, record.call.to] : [record.from]
}

/**
 * `tx.effects_differed`, in `tx`, when a mined tx's receipt shows other effects than were predicted
 * before it was signed (window totals count the larger of the two either way).
 */
export function noteDifference(
  ctx: AgentWalletContext,
  tx: StorageTx,
  next: MinedTransaction | MinedUserOperation,
): void {
  if (!next.effects || !next.receiptEffects) return
  const predicted = fromStoredEffects(next.effects)
  const actual = fromStoredEffects(next.receiptEffects)
  const differ = effectsDiffer(predicted, actual, { to: next.call.to, value: BigInt(next.call.value) })
  if (!differ) return
  appendEvent(ctx, tx, next.tenantId, 'tx.effects_differed', {
    ...txPayload(next),
    blockNumber: next.blockNumber,
    missing: storedList(differ.missing),
    unexpected: storedList(differ.unexpected),
  })
}

function storedList(effects: Effect[]): StoredEffect[] {
  const stored = toStoredEffects({ status: 'known', source: 'receipt', effects })
  return stored.status === 'known' ? stored.effects : []
}

const cancelledMessage = 'Cancelled: a zero-value transfer to the wallet itself took its nonce'

/** Writes a mined record (from `minedRecord`) with its `tx.confirmed` or `tx.failed` event in `tx`. */
export async function saveMined(
  ctx: AgentWalletContext,
  tx: StorageTx,
  next: MinedTransaction | FailedTransaction,
): Promise<void> {
  await tx.put('transactions', next)
  if (next.status === 'confirmed') {
    appendEvent(ctx, tx, next.tenantId, 'tx.confirmed', { ...txPayload(next), blockNumber: next.blockNumber })
    noteDifference(ctx, tx, next)
  } else {
    appendEvent(ctx, tx, next.tenantId, 'tx.failed', {
      ...txPayload(next),
      reason: next.error.code === 'cancelled' ? 'cancelled' : 'reverted',
      blockNumber: next.blockNumber,
    })
  }
}

/** A tx with a receipt: mined, successfully or reverted. */
export type MinedRecord = MinedTransaction | (FailedTransaction & Signature & MinedIn)

/**
 * confirmed (or reverted) → submitted: its block left the canonical chain (a reorg). Its receipt's
 * fields go, its signature and nonce stay (the same bytes are broadcast again), and `tx.reorged`
 * names the block it was in. Spend limits keep counting it: `submitted` is counted as `confirmed` is.
 * @example const back = await writeReorged(ctx, tx, record)
 */
export async function writeReorged(
  ctx: AgentWalletContext,
  tx: StorageTx,
  record: MinedRecord,
): Promise<SubmittedTransaction> {
  const {
    blockNumber,
    blockHash,
    gasUsed: _gasUsed,
    finality: _finality,
    finalizedAt: _finalizedAt,
    receiptEffects: _receiptEffects,
    confirmedAt: _confirmedAt,
    error: _error,
    status: _status,
    ...rest
  } = record
  const now = ctx.now().toISOString()
  const next: SubmittedTransaction = { ...rest, status: 'submitted', submittedAt: now, updatedAt: now }
  await writeLeftBlock(ctx, tx, next, { blockNumber, blockHash })
  return next
}

/**
 * Writes a record moved back to `submitted` by a reorg, with `tx.reorged` naming the block it left.
 * @example await writeLeftBlock(ctx, tx, next, { blockNumber, blockHash })
 */
export async function writeLeftBlock(
  ctx: AgentWalletContext,
  tx: StorageTx,
  next: TransactionRecord,
  { blockNumber, blockHash }: { blockNumber: number; blockHash?: Hex | undefined },
): Promise<void> {
  await tx.put('transactions', next)
  appendEvent(ctx, tx, next.tenantId, 'tx.reorged', {
    ...txPayload(next),
    blockNumber,
    ...(blockHash ? { blockHash } : {}),
  })
}

/**
 * A mined tx's block, checked against the canonical chain: `finalized` once deep enough, else still
 * `pending` with the hash of its block (a record saved before hashes were kept gets one here).
 * @example await writeBlockChecked(tx, record, { blockHash, finalizedAt: now })
 */
export async function writeBlockChecked(
  tx: StorageTx,
  record: MinedRecord | MinedUserOperation,
  checked: { blockHash: Hex; finalizedAt: string | undefined },
): Promise<void> {
  await tx.put('transactions', {
    ...record,
    blockHash: checked.blockHash,
    ...(checked.finalizedAt
      ? { finality: 'finalized', finalizedAt: checked.finalizedAt }
      : { finality: 'pending' }),
  })
}

/**
 * Writes queued (signed) → submitted with its `tx.submitted` event in `tx`: the node took it at
 * `submittedAt` (`markSubmitted` answers at once and batches this).
 * @example await writeSubmitted(ctx, tx, current, { submittedAt: now, updatedAt: now })
 */
export async function writeSubmitted(
  ctx: AgentWalletContext,
  tx: StorageTx,
  record: SignedQueuedTransaction,
  at: { submittedAt: string; updatedAt: string },
): Promise<SubmittedTransaction> {
  const next: SubmittedTransaction = { ...record, status: 'submitted', ...at }
  await tx.put('transactions', next)
  appendEvent(ctx, tx, next.tenantId, 'tx.submitted', txPayload(next))
  return next
}

/**
 * submitted → submitted, broadcast again byte for byte (the node had dropped it): its last broadcast
 * moves to now.
 * @example await markRebroadcast(ctx, record)
 */
export async function markRebroadcast(
  ctx: AgentWalletContext,
  record: SubmittedTransaction,
): Promise<SubmittedTransaction> {
  const now = ctx.now().toISOString()
  const next: SubmittedTransaction = { ...record, submittedAt: now, updatedAt: now }
  await ctx.storage.transaction([], (tx) => tx.put('transactions', next))
  return next
}

/**
 * submitted → submitted under a new signature at the same nonce (a stuck tx replaced with higher
 * fees), with `tx.submitted` naming the hash it replaces; the old signature is kept in `replaced`,
 * since it may still be the one mined.
 * @example const next = await markReplaced(ctx, record, { call, gas, rawTx, hash })
 */
export async function markReplaced(
  ctx: AgentWalletContext,
  record: SubmittedTransaction,
  signed: Pick<SubmittedTransaction, 'call' | 'gas' | 'rawTx' | 'hash' | 'cancels'>,
): Promise<SubmittedTransaction> {
  const now = ctx.now().toISOString()
  const previous: SignedVersion = {
    hash: record.hash,
    rawTx: record.rawTx,
    gas: record.gas,
    replacedAt: now,
    call: record.call,
    ...(record.cancels ? { cancels: true } : {}),
  }
  // A new signature is neither stuck yet nor, unless it says so, a cancel.
  const { stuck: _stuck, cancels: _cancels, ...unsigned } = record
  const next: SubmittedTransaction = {
    ...unsigned,
    ...signed,
    replaced: [...(record.replaced ?? []), previous],
    submittedAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('transactions', next)
    appendEvent(ctx, tx, next.tenantId, 'tx.submitted', {
      ...txPayload(next),
      replaces: record.hash,
      ...(next.cancels ? { cancels: true } : {}),
    })
    appendAudit(ctx, tx, next.tenantId, {
      kind: 'vault.signature',
      subjects: { walletId: next.walletId, transactionId: next.id, keyId: next.from },
      payload: {
        signed: next.cancels ? 'cancel' : 'replacement',
        hash: next.hash,
        replaces: record.hash,
        chainId: next.chainId,
        nonce: next.nonce,
      },
    })
  })
  return next
}

/**
 * submitted → submitted and `stuck`: the tracker no longer raises its fees (the cap, or the wallet's
 * funds), with `tx.stuck`. Written once; a later pass finds it stuck and leaves it.
 * @example await markStuck(ctx, record, { since, reason: 'fee_cap_reached', … })
 */
export async function markStuck(
  ctx: AgentWalletContext,
  record: SubmittedTransaction,
  stuck: TxStuck,
): Promise<SubmittedTransaction> {
  const next: SubmittedTransaction = { ...record, stuck, updatedAt: ctx.now().toISOString() }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('transactions', next)
    appendEvent(ctx, tx, next.tenantId, 'tx.stuck', { ...txPayload(next), ...stuck })
  })
  return next
}

/** What the resource answered a payment its payee took: an error status, or nothing (`status: null`). */
export type Undelivered = { status: number | null; reason: string }

/**
 * queued → confirmed for an intent its payee settled (an x402 payment), with `payment.settled`:
 * `hash` is the settlement tx (read from the chain, or as the payee told it). With `undelivered`, the
 * payee took the money and answered an error or nothing: the record says so (`meta.delivered: false`,
 * `meta.undelivered`) and `payment.settled_without_delivery` is appended in the same commit.
 * @example const settled = await markSettled(ctx, record, { hash, settlementTx })
 */
export async function markSettled(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction,
  settlement: { hash: Hex | undefined; settlementTx: string | null; undelivered?: Undelivered | undefined },
): Promise<SettledOffchainTransaction> {
  const now = ctx.now().toISOString()
  const { undelivered } = settlement
  const next: SettledOffchainTransaction = {
    ...record,
    status: 'confirmed',
    ...(settlement.hash ? { hash: settlement.hash } : {}),
    meta: {
      ...record.meta,
      settlementTx: settlement.settlementTx,
      ...(undelivered ? { delivered: false, undelivered } : {}),
    },
    confirmedAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('transactions', next)
    const payment = {
      ...txPayload(next),
      payee: next.to,
      resource: String(next.meta?.resource ?? ''),
      network: `eip155:${next.chainId}`,
    }
    appendEvent(ctx, tx, next.tenantId, 'payment.settled', payment)
    if (undelivered)
      appendEvent(ctx, tx, next.tenantId, 'payment.settled_without_delivery', {
        ...payment,
        responseStatus: undelivered.status,
        reason: undelivered.reason,
      })
  })
  return next
}

/**
 * queued → queued for an x402 payment whose EIP-3009 authorization the vault signed, before the
 * request carrying it leaves: from here the chain, not the payee's answer, says when it is spent
 * (`meta.authorization`; payments/readAuthorization.ts). The vault's signature (`signed`: what it
 * signed) enters the audit trail in the same commit, so none is used unrecorded.
 * @example const authorized = await markAuthorized(ctx, record, authorization, typedDataSigned(typedData))
 */
export async function markAuthorized(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction,
  authorization: Record<string, unknown>,
  signed: TypedDataSigned,
  /** The vault key that signed: the wallet's own (`from`), or a smart wallet's owner key. */
  keyId: Address = record.from,
): Promise<UnsignedQueuedTransaction> {
  const next: UnsignedQueuedTransaction = {
    ...record,
    meta: { ...record.meta, authorization },
    updatedAt: ctx.now().toISOString(),
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('transactions', next)
    appendAudit(ctx, tx, next.tenantId, {
      kind: 'vault.signature',
      subjects: { walletId: next.walletId, transactionId: next.id, keyId },
      payload: { ...signed, for: 'x402_payment' },
    })
  })
  return next
}

/**
 * failed → confirmed (or failed as reverted, with its block) for a signed tx the chain shows mined
 * after it was reported failed: its broadcast's answer was lost, or a node's read lagged. `next` is
 * the record as mined (`minedRecord` of the failed one `reopened`); the event says `recovered`, so a
 * consumer that acted on the earlier `tx.failed` can undo it.
 * @example await writeRecovered(ctx, tx, minedRecord(ctx, reopened(failed), receipt))
 */
export async function writeRecovered(
  ctx: AgentWalletContext,
  tx: StorageTx,
  next: MinedTransaction | FailedTransaction,
): Promise<void> {
  await tx.put('transactions', next)
  if (next.status === 'confirmed' && next.blockNumber !== undefined) {
    appendEvent(ctx, tx, next.tenantId, 'tx.confirmed', {
      ...txPayload(next),
      blockNumber: next.blockNumber,
      recovered: true,
    })
    if (next.status === 'confirmed') noteDifference(ctx, tx, next)
  } else {
    appendEvent(ctx, tx, next.tenantId, 'tx.failed', {
      ...txPayload(next),
      reason: 'reverted',
      blockNumber: next.blockNumber,
      recovered: true,
    })
  }
}

/**
 * failed → failed, with nothing left to watch: the chain shows another tx mined at its nonce, so it
 * can never be mined. No event: its status and reason are unchanged.
 * @example await markNonceSettled(ctx, record)
 */
export async function markNonceSettled(ctx: AgentWalletContext, record: FailedTransaction): Promise<void> {
  const next: FailedTransaction = { ...record, nonceSettled: true, updatedAt: ctx.now().toISOString() }
  await ctx.storage.transaction([], (tx) => tx.put('transactions', next))
}

/**
 * A signed failed tx as it was before it failed (submitted at its last broadcast), to be passed to
 * `minedRecord` once the chain shows it mined.
 * @example const mined = minedRecord(ctx, reopened(failed), receipt)
 */
export function reopened(record: FailedTransaction & Signature): SubmittedTransaction {
  const {
    error: _error,
    nonceSettled: _settled,
    blockNumber: _block,
    blockHash: _hash,
    gasUsed: _gas,
    finality: _finality,
    finalizedAt: _finalizedAt,
    receiptEffects: _receiptEffects,
    ...rest
  } = record
  return { ...rest, status: 'submitted', submittedAt: record.submittedAt ?? record.updatedAt }
}
