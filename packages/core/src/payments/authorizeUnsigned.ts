import type { Address } from 'viem'
import type { TypedDataSigned } from '../audit/typedDataSigned.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import type { TransactionRecord, UnsignedQueuedTransaction } from '../transactions/types.js'
import { markAuthorized } from './paymentTransitions.js'
import { type SignedAuthorization, unsignedPaymentOf } from './signedAuthorization.js'

/**
 * Keeps a payment's signed authorization on its record before the request carries it, under the
 * wallet's lock, only if the payment is still open: one the tracker released meanwhile (abandoned
 * past `unsignedPaymentWaitMs`) or that moved on is refused with `payment_failed` (`details.cause`:
 * its error code), and the authorization never leaves the process.
 * @example const kept = await authorizeUnsigned(ctx, record.id, signed.authorization, signed.typedData, signed.keyId)
 */
export async function authorizeUnsigned(
  ctx: AgentWalletContext,
  transactionId: string,
  authorization: SignedAuthorization,
  typedData: TypedDataSigned,
  keyId: Address,
): Promise<UnsignedQueuedTransaction> {
  const candidate = await ctx.storage.get('transactions', transactionId)
  if (!candidate) throw released(transactionId, undefined)
  return withLock(ctx.storage, [walletLockKey(candidate.from)], async () => {
    const record = await ctx.storage.get('transactions', transactionId)
    const open = unsignedPaymentOf(record)
    if (!open) throw released(transactionId, record)
    return markAuthorized(ctx, open, authorization, typedData, keyId)
  })
}

function released(transactionId: string, record: TransactionRecord | undefined): BaseError {
  return new BaseError('payment_failed', 'The payment was released before it was signed: nothing was paid', {
    details: { transactionId, status: record?.status ?? null, cause: record?.error?.code ?? null },
  })
}
