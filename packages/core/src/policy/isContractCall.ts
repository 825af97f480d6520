import type { PolicyIntent } from '../intents/types.js'

/**
 * True when the intent calls a contract: any kind but a payment, or a native transfer with calldata.
 * A token transfer or an x402 payment is a payment to `to` (its calldata is just the token's
 * `transfer` encoding), so it is judged by the recipient rules, not by `allow_contracts`.
 * @example isContractCall({ kind: 'swap', ... }) // true
 */
export function isContractCall(intent: PolicyIntent): boolean {
  if (intent.kind === 'x402_payment') return false
  if (intent.kind !== 'transfer') return true
  return intent.asset.address === 'native' && intent.data !== undefined && intent.data.length > 2
}
