import { type Address, getAddress } from 'viem'
import { safeAbi } from '../chain/safeAbi.js'
import { isTransportError, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { NotFoundError } from '../errors/errors.js'

export type SafeState = { owners: Address[]; threshold: number; nonce: bigint }

/**
 * Owners, threshold and nonce of a Safe, read from chain; an address that does not answer as a
 * Safe is `not_found`.
 * @example const { owners, threshold, nonce } = await readSafe(chain, safe)
 */
export async function readSafe(chain: ChainHandle, safe: Address): Promise<SafeState> {
  try {
    const [owners, threshold, nonce] = await Promise.all([
      chain.client.readContract({ address: safe, abi: safeAbi, functionName: 'getOwners' }),
      chain.client.readContract({ address: safe, abi: safeAbi, functionName: 'getThreshold' }),
      chain.client.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' }),
    ])
    return { owners: owners.map((owner) => getAddress(owner)), threshold: Number(threshold), nonce }
  } catch (error) {
    if (isTransportError(error)) throw toChainError(error, chain.name)
    throw new NotFoundError('Safe', { details: { address: safe, chain: chain.name } })
  }
}

/** True when `address` is among `owners` (case-insensitive). */
export function isOwner(owners: readonly Address[], address: Address): boolean {
  return owners.some((owner) => owner.toLowerCase() === address.toLowerCase())
}
