import type { AgentWalletContext } from '../context.js'
import type { BaseError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import type { StorageTx } from '../storage/types.js'
import type { TransactionRecord } from './types.js'

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
  record: TransactionRecord,
  error: BaseError,
  options: { releaseNonce?: { nonceId: string } | undefined } = {},
): Promise<TransactionRecord> {
  return ctx.storage.transaction([], async (tx) => {
    if (options.releaseNonce && record.nonce !== undefined)
      await releaseNonce(tx, options.releaseNonce.nonceId, record.nonce)
    return writeFailed(ctx, tx, record, error)
  })
}

/**
 * Writes queued → failed, with its `tx.failed` event, in `tx`: the record as saved.
 * @example const failed = await writeFailed(ctx, tx, record, error)
 */
export async function writeFailed(
  ctx: AgentWalletContext,
  tx: StorageTx,
  record: TransactionRecord,
  error: BaseError,
): Promise<TransactionRecord> {
  const next: TransactionRecord = {
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

/** submitted → confirmed or failed, from a receipt: the record to save with `saveMined`. */
export function minedRecord(
  ctx: AgentWalletContext,
  record: TransactionRecord,
  receipt: { status: 'success' | 'reverted'; blockNumber: bigint; gasUsed: bigint },
): TransactionRecord {
  const now = ctx.now().toISOString()
  const base = {
    ...record,
    blockNumber: Number(receipt.blockNumber),
    gasUsed: receipt.gasUsed.toString(),
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
  next: TransactionRecord,
): Promise<void> {
  await tx.put('transactions', next)
  if (next.status === 'confirmed') {
    appendEvent(ctx, tx, next.tenantId, 'tx.confirmed', {
      ...txPayload(next),
      blockNumber: next.blockNumber ?? 0,
    })
  } else {
    appendEvent(ctx, tx, next.tenantId, 'tx.failed', {
      ...txPayload(next),
      reason: 'reverted',
      blockNumber: next.blockNumber,
    })
  }
}
