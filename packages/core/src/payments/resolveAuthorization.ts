import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { markFailed } from '../transactions/transitions.js'
import { isSigned, type TransactionRecord } from '../transactions/types.js'
import { markSettled } from './paymentTransitions.js'
import { readAuthorization } from './readAuthorization.js'
import { signedAuthorizationOf } from './signedAuthorization.js'

/**
 * Moves an x402 payment whose authorization is signed as the chain says, under its wallet's lock:
 * used → `confirmed` with the hash of the tx that used it (`payment.settled`, and
 * `payment.settled_without_delivery` when the request's outcome was not the resource); cancelled →
 * `failed` (`authorization_cancelled`); unused at `validBefore` (by the chain's time and the service's)
 * → `failed` (`authorization_expired`).
 * Still usable (or not readable) → left `queued`, reserved. Answers the record as it stands.
 * @example const record = await resolveAuthorization(ctx, transactionId)
 */
export async function resolveAuthorization(
  ctx: AgentWalletContext,
  transactionId: string,
): Promise<TransactionRecord | undefined> {
  const candidate = await ctx.storage.get('transactions', transactionId)
  if (!candidate) return undefined
  return withLock(ctx.storage, [walletLockKey(candidate.from)], async () => {
    const record = await ctx.storage.get('transactions', transactionId)
    const authorization = record && signedAuthorizationOf(record)
    if (record?.status !== 'queued' || isSigned(record) || !authorization) return record
    const fate = await readAuthorization(ctx.chains.get(record.chain), authorization)
    const outcome = (await ctx.storage.get('x402_requests', record.id))?.outcome
    switch (fate.state) {
      case 'used':
        return markSettled(ctx, record, {
          hash: fate.hash,
          settlementTx: fate.hash,
          undelivered: outcome?.delivered
            ? undefined
            : { status: outcome?.status ?? null, reason: outcome?.reason ?? 'no answer was recorded' },
        })
      case 'cancelled':
        return markFailed(
          ctx,
          record,
          new BaseError('authorization_cancelled', 'The payment authorization was cancelled unused', {
            details: { cancelledBy: fate.hash },
          }),
        )
      case 'lapsed':
        // Both clocks must agree it is past: the chain's decides, the service's guards against a
        // chain whose time runs ahead of the payee's (a devnet mining fast).
        if (ctx.now().getTime() < Number(authorization.validBefore) * 1000) return record
        return markFailed(
          ctx,
          record,
          new BaseError(
            'authorization_expired',
            `The payment authorization expired unused${outcome?.reason ? `: ${outcome.reason}` : ''}`,
          ),
        )
      default:
        return record
    }
  })
}
