import type { Address } from 'viem'
import { sharedRead } from '../chain/sharedRead.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'

/**
 * True when `address` holds code (a contract, or an EIP-7702 delegated account): a call to it runs
 * code the calldata does not tell. Predictions made at once share one `getCode` of an address
 * (`sharedRead`): 20 concurrent sends to one recipient ask once.
 * @example if (await hasCode(chain, call.to)) return simulate()
 */
export async function hasCode(chain: ChainHandle, address: Address): Promise<boolean> {
  try {
    const code = await sharedRead(chain, `code ${address.toLowerCase()}`, () =>
      chain.client.getCode({ address }),
    )
    return code !== undefined && code !== '0x'
  } catch (error) {
    throw toChainError(error, chain.name, { read: true })
  }
}
