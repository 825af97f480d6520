import { type Address, erc20Abi } from 'viem'
import { ValidationError } from '../errors/errors.js'
import type { IntentAsset } from '../intents/types.js'
import { isRevert, toChainError } from './toChainError.js'
import type { ChainHandle } from './types.js'

/**
 * The asset a request spends: the native coin, a token of the address book, or any ERC-20 read
 * from chain. A token address that does not answer `decimals()` is `validation_failed`.
 * @example const asset = await resolveAsset(chain, '0x…')
 */
export async function resolveAsset(chain: ChainHandle, token?: Address): Promise<IntentAsset> {
  if (token === undefined)
    return { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals }
  const known = chain.contracts.tokens?.find((entry) => entry.address.toLowerCase() === token.toLowerCase())
  if (known) return { address: known.address, symbol: known.symbol, decimals: known.decimals }
  try {
    const [decimals, symbol] = await Promise.all([
      chain.client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }),
      chain.client
        .readContract({ address: token, abi: erc20Abi, functionName: 'symbol' })
        .catch(() => 'UNKNOWN'),
    ])
    return { address: token, symbol, decimals }
  } catch (error) {
    if (!isRevert(error)) throw toChainError(error, chain.name, { read: true })
    throw new ValidationError('Unknown token: the address is not an ERC-20 contract on this chain', {
      details: { token, chain: chain.name },
    })
  }
}
