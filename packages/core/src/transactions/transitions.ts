import type { Hex } from 'viem'
import type { AgentWalletContext } from '../context.js'
import type { BaseError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import type { StorageTx } from '../storage/types.js'
import type {
  FailedTransaction,
  MinedIn,
  MinedTransaction,
  QueuedTransaction,
  SettledOffchainTransaction,
  Signature,
  SignedQueuedTransaction,
  SubmittedTransaction,
  TransactionRecord,
  UnsignedQueuedTransaction,
} from './types.js'

// Every step of a transaction's lifecycle after it is made (`submitIntent`, `nonceFiller`), but
// those an approver decides (approvals/transitions.ts): each writes the record it moves with its
// event in one commit. queued → submitted is also batched off the send's path (submittedBatch.ts).

/** A transaction that can still fail: accepted and not yet mined. */
export type ActiveTransaction = QueuedTransaction | SubmittedTransaction

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
 * @example const failed = await writeFailed(ctx, tx, record, error)
 */
export async function writeFailed(
  ctx: AgentWalletContext,
  tx: StorageTx,
  record: ActiveTransaction,
  error: BaseError,
): Promise<FailedTransaction> {
  const next: FailedTransaction = {
    ...record,
    status: 'failed',
    error: { code: error.code, message: error.shortMessage },
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
  receipt: { status: 'success' | 'reverted'; blockNumber: bigint; blockHash: Hex; gasUsed: bigint },
): MinedTransaction | FailedTransaction {
  const now = ctx.now().toISOString()
  const base = {
    ...record,
    blockNumber: Number(receipt.blockNumber),
    blockHash: receipt.blockHash,
    gasUsed: receipt.gasUsed.toString(),
    finality: 'pending' as const,
    updatedAt: now,
  }
  return receipt.status === 'success'
    ? { ...base, status: 'confirmed', confirmedAt: now }
    : {
        ...base,
        status: 'failed',
        error: { code: 'transaction_failed', message: 'The transaction reverted' },
      }
}

/** Writes a mined record (from `minedRecord`) with its `tx.confirmed` or `tx.failed` event in `tx`. */
export async function saveMined(
  ctx: AgentWalletContext,
  tx: StorageTx,
  next: MinedTransaction | FailedTransaction,
): Promise<void> {
  await tx.put('transactions', next)
  if (next.status === 'confirmed') {
    appendEvent(ctx, tx, next.tenantId, 'tx.confirmed', { ...txPayload(next), blockNumber: next.blockNumber })
  } else {
    appendEvent(ctx, tx, next.tenantId, 'tx.failed', {
      ...txPayload(next),
      reason: 'reverted',
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
    confirmedAt: _confirmedAt,
    error: _error,
    status: _status,
    ...rest
  } = record
  const now = ctx.now().toISOString()
  const next: SubmittedTransaction = { ...rest, status: 'submitted', submittedAt: now, updatedAt: now }
  await tx.put('transactions', next)
  appendEvent(ctx, tx, next.tenantId, 'tx.reorged', {
    ...txPayload(next),
    blockNumber,
    ...(blockHash ? { blockHash } : {}),
  })
  return next
}

/**
 * A mined tx's block, checked against the canonical chain: `finalized` once deep enough, else still
 * `pending` with the hash of its block (a record saved before hashes were kept gets one here).
 * @example await writeBlockChecked(tx, record, { blockHash, finalizedAt: now })
 */
export async function writeBlockChecked(
  tx: StorageTx,
  record: MinedRecord,
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
  signed: Pick<SubmittedTransaction, 'call' | 'gas' | 'rawTx' | 'hash'>,
): Promise<SubmittedTransaction> {
  const now = ctx.now().toISOString()
  const previous = { hash: record.hash, rawTx: record.rawTx, gas: record.gas, replacedAt: now }
  const next: SubmittedTransaction = {
    ...record,
    ...signed,
    replaced: [...(record.replaced ?? []), previous],
    submittedAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('transactions', next)
    appendEvent(ctx, tx, next.tenantId, 'tx.submitted', { ...txPayload(next), replaces: record.hash })
  })
  return next
}

/**
 * queued → confirmed for an intent its payee settled (an x402 payment), with `payment.settled`:
 * `hash` is the settlement tx, when the payee told us one.
 * @example const settled = await markSettled(ctx, record, { hash, settlementTx })
 */
export async function markSettled(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction,
  settlement: { hash: Hex | undefined; settlementTx: string | null },
): Promise<SettledOffchainTransaction> {
  const now = ctx.now().toISOString()
  const next: SettledOffchainTransaction = {
    ...record,
    status: 'confirmed',
    ...(settlement.hash ? { hash: settlement.hash } : {}),
    meta: { ...record.meta, settlementTx: settlement.settlementTx },
    confirmedAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('transactions', next)
    appendEvent(ctx, tx, next.tenantId, 'payment.settled', {
      ...txPayload(next),
      payee: next.to,
      resource: String(next.meta?.resource ?? ''),
      network: `eip155:${next.chainId}`,
    })
  })
  return next
}
