import { type Address, zeroAddress } from 'viem'
import { resolveAsset } from '../chain/resolveAsset.js'
import type { ChainHandle } from '../chain/types.js'
import { ValidationError } from '../errors/errors.js'
import type { IntentAsset } from '../intents/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { addressSchema } from '../schemas/primitives.js'

/** The pseudo-address many aggregators use for the native coin. */
export const nativeTokenAddress: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

/** An asset a swap moves, and the ERC-20 a router path uses for it (WETH for the native coin). */
export type SwapToken = IntentAsset & { route: Address }

/**
 * Resolves what a request names as a token: the native coin ('ETH', 'native', the chain's native
 * symbol, the zero address or 0xEeee…EeE), a token address, or a symbol of the chain's address book.
 * @example await resolveSwapToken(chain, 'ETH') // { address: 'native', route: <WETH>, ... }
 */
export async function resolveSwapToken(
  chain: ChainHandle,
  input: string,
  field = 'token',
): Promise<SwapToken> {
  if (isNativeToken(chain, input)) {
    const weth = chain.contracts.weth
    if (!weth)
      throw unknownToken(
        chain,
        input,
        field,
        'This chain has no WETH in its address book to route the native coin',
      )
    return { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals, route: weth }
  }
  if (input.startsWith('0x')) {
    const address = parseInput(addressSchema, input)
    const asset = await resolveAsset(chain, address)
    return { ...asset, route: address }
  }
  const upper = input.toUpperCase()
  const known = chain.contracts.tokens?.find((token) => token.symbol.toUpperCase() === upper)
  if (known)
    return { address: known.address, symbol: known.symbol, decimals: known.decimals, route: known.address }
  if (upper === `W${chain.nativeSymbol.toUpperCase()}` && chain.contracts.weth) {
    const asset = await resolveAsset(chain, chain.contracts.weth)
    return { ...asset, route: chain.contracts.weth }
  }
  throw unknownToken(
    chain,
    input,
    field,
    `Unknown token "${input}" on ${chain.name}: use a token address or a known symbol`,
  )
}

/** True for every spelling of the native coin a request may use. */
export function isNativeToken(chain: Pick<ChainHandle, 'nativeSymbol'>, input: string): boolean {
  const lower = input.toLowerCase()
  return (
    lower === 'native' ||
    lower === chain.nativeSymbol.toLowerCase() ||
    lower === zeroAddress ||
    lower === nativeTokenAddress.toLowerCase()
  )
}

function unknownToken(chain: ChainHandle, input: string, field: string, message: string): ValidationError {
  return new ValidationError(message, {
    details: { token: input, chain: chain.name, issues: [{ path: field, message }] },
  })
}
