import { type Address, type Hex, isAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { BaseError } from '../errors/baseError.js'

/**
 * The id a vault files an address under: lowercase, so lookups ignore checksum case.
 * @example vaultAddressId('0xAbC…') // '0xabc…'
 */
export const vaultAddressId = (address: Address): string => {
  if (typeof address !== 'string' || !isAddress(address, { strict: false })) {
    throw new BaseError('validation_failed', 'Invalid address', { details: { address } })
  }
  return address.toLowerCase()
}

/**
 * Checks a private key (0x + 64 hex, inside the secp256k1 order) and returns it with its address.
 * @example const { privateKey, address } = parsePrivateKey('0x59c6…')
 */
export const parsePrivateKey = (value: Hex): { privateKey: Hex; address: Address } => {
  // The key never goes into the error: an invalid key may still be a real one mistyped.
  const invalid = () =>
    new BaseError('validation_failed', 'Invalid private key: expected 0x and 64 hex characters')
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) throw invalid()
  const privateKey = value.toLowerCase() as Hex
  try {
    return { privateKey, address: privateKeyToAccount(privateKey).address }
  } catch {
    throw invalid()
  }
}
