import type { AgentWalletContext } from '../context.js'
import type { BaseError } from '../errors/baseError.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { markFailed } from '../transactions/transitions.js'
import type { TransactionRecord } from '../transactions/types.js'
import { unsignedPaymentOf } from './signedAuthorization.js'

/**
 * Ends an x402 payment that signed nothing as `failed` with `error` (its reservation released,
 * `tx.failed` in the same commit), under its wallet's lock — the lock its request signs under, so a
 * payment is either released or signed, never both. With `idleMs`, only once its record has not
 * moved for that long (an abandoned one). Anything else (signed, settled, released, or too recent)
 * is left as it is. Answers the record as it stands.
 * @example await releaseUnsigned(ctx, id, abandoned, { idleMs: unsignedPaymentWaitMs })
 */
export async function releaseUnsigned(
  ctx: AgentWalletContext,
  transactionId: string,
  error: BaseError,
  options: { idleMs?: number | undefined } = {},
): Promise<TransactionRecord | undefined> {
  const candidate = await ctx.storage.get('transactions', transactionId)
  if (!candidate) return undefined
  return withLock(ctx.storage, [walletLockKey(candidate.from)], async () => {
    const record = await ctx.storage.get('transactions', transactionId)
    const open = unsignedPaymentOf(record)
    if (!open) return record
    if (options.idleMs !== undefined && Date.parse(open.updatedAt) > ctx.now().getTime() - options.idleMs)
      return open
    return markFailed(ctx, open, error)
  })
}
