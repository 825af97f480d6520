import type { Address, Hex } from 'viem'
import type { TransactionRecord, UnsignedQueuedTransaction } from '../transactions/types.js'

/**
 * The EIP-3009 authorization an x402 payment signed, kept on its record (`meta.authorization`) from
 * before the request leaves: what the chain is asked about until it says the authorization was used,
 * cancelled, or can no longer be (numbers as decimal strings).
 */
export type SignedAuthorization = {
  token: Address
  authorizer: Address
  payee: Address
  value: string
  nonce: Hex
  validAfter: string
  /** Unix seconds: the token refuses it in any block at or after this time. */
  validBefore: string
  /** The chain's head before the request left: no block before it can hold its use. */
  fromBlock: string
  /** The token's EIP-712 domain, to sign its cancellation. */
  domain: { name: string; version: string }
}

/**
 * How long a payment's request may still be waiting for its answer (the resource's timeout is 30 s):
 * meanwhile the request, not the tracker or a cancel, decides, so a payee's answer is never taken for none.
 */
export const answerWaitMs = 60_000

/**
 * How long an accepted x402 payment may stay unsigned (`queued`, no authorization) before the tracker
 * releases it as abandoned (`payment_abandoned`): its request stopped before signing (a process that
 * died). Longer than a live request takes to get there — a smart wallet's deployment is awaited up to
 * 120 s, then the vault signs — and a request that is slower still is refused at signing, never paid.
 */
export const unsignedPaymentWaitMs = 5 * 60_000

/**
 * The authorization a stored x402 payment signed, or undefined when it signed none (yet).
 * @example const authorization = signedAuthorizationOf(record)
 */
export function signedAuthorizationOf(
  record: Pick<TransactionRecord, 'kind' | 'meta'>,
): SignedAuthorization | undefined {
  if (record.kind !== 'x402_payment') return undefined
  const authorization = record.meta?.authorization as SignedAuthorization | undefined
  return authorization?.nonce ? authorization : undefined
}

/**
 * The stored x402 payment if it is accepted and not signed yet (`queued`, no authorization): what a
 * request may still sign, or the tracker release once abandoned; else undefined.
 * @example const open = unsignedPaymentOf(await ctx.storage.get('transactions', id))
 */
export function unsignedPaymentOf(
  record: TransactionRecord | undefined,
): UnsignedQueuedTransaction | undefined {
  if (record?.kind !== 'x402_payment' || record.status !== 'queued' || record.rawTx !== undefined) return
  return signedAuthorizationOf(record) ? undefined : record
}
