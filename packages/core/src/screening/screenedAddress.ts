import { isAddress as isSolanaAddress } from '@solana/kit'
import { isValidAddress } from '../schemas/primitives.js'
import type { ChainFamily } from '../vault/types.js'

/** An address as lists store and look it up: `key` compares equal for every spelling of one address. */
export type ScreenedAddress = { ok: true; family: ChainFamily; address: string; key: string }
export type ScreenedAddressIssue = { ok: false; family: ChainFamily; reason: string }

/**
 * The one address check of screening, per chain family: EVM is `0x` + 40 hex (mixed case must be a
 * valid EIP-55 checksum), keyed lowercase; Solana is base58 of 32 bytes, case-sensitive, keyed as
 * given.
 * @example screenedAddress('evm', '0xAbC…') // { ok: true, key: '0xabc…', … }
 */
export function screenedAddress(family: ChainFamily, value: string): ScreenedAddress | ScreenedAddressIssue {
  const address = value.trim()
  switch (family) {
    case 'evm':
      return isValidAddress(address)
        ? { ok: true, family, address, key: address.toLowerCase() }
        : { ok: false, family, reason: 'not 0x followed by 40 hex characters with a valid EIP-55 checksum' }
    case 'solana':
      // Base58 has one spelling: the address is its own key.
      return isSolanaAddress(address)
        ? { ok: true, family, address, key: address }
        : { ok: false, family, reason: 'not base58 of a 32-byte public key' }
  }
}
