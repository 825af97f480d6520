import type { PolicyIntent } from './types.js'

/**
 * True when the intent calls a contract: any non-transfer kind, or calldata on a transfer.
 * A plain value transfer (native or token, `to` = the recipient) is not a contract call.
 * @example isContractCall({ kind: 'swap', ... }) // true
 */
export function isContractCall(intent: PolicyIntent): boolean {
  return intent.kind !== 'transfer' || (intent.data !== undefined && intent.data.length > 2)
}
