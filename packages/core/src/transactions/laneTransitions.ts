import type { Hex } from 'viem'
import { appendAudit } from '../audit/appendAudit.js'
import type { AgentWalletContext } from '../context.js'
import type { EffectLog } from '../effects/effectsOfLogs.js'
import { toStoredEffects } from '../effects/toStoredEffects.js'
import { appendEvent } from '../events/appendEvent.js'
import type { StorageTx } from '../storage/types.js'
import { actualEffectsOf, appendEffectsDiffered } from './minedEffects.js'
import { txPayload, writeLeftBlock } from './transitions.js'
import type {
  FailedTransaction,
  MinedIn,
  MinedTransaction,
  Signature,
  SignedQueuedTransaction,
  SignedVersion,
  SubmittedTransaction,
  TxStuck,
} from './types.js'

/**
 * submitted → confirmed or failed, from a receipt: the record to save with `writeMined`. Its block's
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

const cancelledMessage = 'Cancelled: a zero-value transfer to the wallet itself took its nonce'

/** Writes a mined record (from `minedRecord`) with its `tx.confirmed` or `tx.failed` event in `tx`. */
export async function writeMined(
  ctx: AgentWalletContext,
  tx: StorageTx,
  next: MinedTransaction | FailedTransaction,
): Promise<void> {
  await tx.put('transactions', next)
  if (next.status === 'confirmed') {
    appendEvent(ctx, tx, next.tenantId, 'tx.confirmed', { ...txPayload(next), blockNumber: next.blockNumber })
    appendEffectsDiffered(ctx, tx, next)
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
    if (next.status === 'confirmed') appendEffectsDiffered(ctx, tx, next)
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
