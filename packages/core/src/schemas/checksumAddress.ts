import { keccak_256 } from '@noble/hashes/sha3.js'
import type { Address } from './hexTypes.js'

const encoder = new TextEncoder()

/**
 * Checksummed forms already computed, by the text asked about: the same few addresses (the wallet,
 * its payees, the chain's contracts) come through every request's schemas, each a keccak256. A memo
 * of a pure function, bounded, shared by whatever runs in the process.
 */
const computed = new Map<string, Address>()
const remembered = 4096

/**
 * The EIP-55 checksummed form of `0x` + 40 hex (any case): a hex letter is upper case where the
 * matching nibble of keccak256(lowercase hex) is 8 or more. @noble/hashes rather than viem, so the
 * contract runs in a browser; `primitives.test.ts` checks it against viem's `getAddress`.
 * @example toChecksumAddress('0x52908400098527886e0f7030069857d2e4169ee7') // '0x52908400098527886E0F7030069857D2E4169EE7'
 */
export function toChecksumAddress(address: string): Address {
  const known = computed.get(address)
  if (known !== undefined) return known
  const checksummed = checksumOf(address)
  // The oldest goes first once full: a Map keeps insertion order.
  if (computed.size >= remembered) computed.delete(computed.keys().next().value as string)
  computed.set(address, checksummed)
  return checksummed
}

function checksumOf(address: string): Address {
  const hex = address.slice(2).toLowerCase()
  const hash = keccak_256(encoder.encode(hex))
  let checksummed = '0x'
  for (let index = 0; index < hex.length; index++) {
    const nibble = (hash[index >> 1]! >> (index % 2 === 0 ? 4 : 0)) & 0x0f
    checksummed += nibble >= 8 ? hex[index]!.toUpperCase() : hex[index]
  }
  return checksummed as Address
}
