import { isValidAddress } from '../schemas/primitives.js'
import type { ChainFamily } from '../vault/types.js'

/** An address as lists store and look it up: `key` compares equal for every spelling of one address. */
export type ScreenedAddress = { ok: true; family: ChainFamily; address: string; key: string }
export type ScreenedAddressIssue = { ok: false; family: ChainFamily; reason: string }

/**
 * The one address check of screening, per chain family: EVM is `0x` + 40 hex (mixed case must be a
 * valid EIP-55 checksum), keyed lowercase. A family without a check here is refused, never guessed:
 * Solana's base58 joins by adding its case.
 * @example screenedAddress('evm', '0xAbC…') // { ok: true, key: '0xabc…', … }
 */
export function screenedAddress(family: ChainFamily, value: string): ScreenedAddress | ScreenedAddressIssue {
  const address = value.trim()
  switch (family) {
    case 'evm':
      return isValidAddress(address)
        ? { ok: true, family, address, key: address.toLowerCase() }
        : { ok: false, family, reason: 'not 0x followed by 40 hex characters with a valid EIP-55 checksum' }
    default:
      return { ok: false, family, reason: `addresses of the ${family} family cannot be screened yet` }
  }
}
