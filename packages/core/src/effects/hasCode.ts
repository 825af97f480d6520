import type { Address } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'

/**
 * True when `address` holds code (a contract, or an EIP-7702 delegated account): a call to it runs
 * code the calldata does not tell.
 * @example if (await hasCode(chain, call.to)) return simulate()
 */
export async function hasCode(chain: ChainHandle, address: Address): Promise<boolean> {
  try {
    const code = await chain.client.getCode({ address })
    return code !== undefined && code !== '0x'
  } catch (error) {
    throw toChainError(error, chain.name, { read: true })
  }
}
