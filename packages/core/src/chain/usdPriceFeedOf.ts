import type { Address } from 'viem'
import type { ChainHandle } from './types.js'

/** An address-book price feed: its pair (`ETH/USD`) and its AggregatorV3 proxy. */
export type PriceFeedRef = { pair: string; feed: Address }

/**
 * The address book's `<SYMBOL>/USD` feed for an asset. The native coin and WETH use the native
 * symbol's feed; a token uses the feed of the symbol it is listed under in `contracts.tokens`, and
 * only when its address is listed: the symbol a token reports itself is never trusted, since anyone
 * can deploy a token called "USDC".
 * @example usdPriceFeedOf(chain, 'native') // { pair: 'ETH/USD', feed: '0x5f4e…' }
 */
export function usdPriceFeedOf(chain: ChainHandle, asset: Address | 'native'): PriceFeedRef | undefined {
  const symbol = listedSymbol(chain, asset)
  if (symbol === undefined) return undefined
  const wanted = `${symbol}/USD`.toUpperCase()
  const entry = Object.entries(chain.contracts.priceFeeds ?? {}).find(
    ([pair]) => pair.toUpperCase() === wanted,
  )
  return entry ? { pair: entry[0], feed: entry[1] } : undefined
}

function listedSymbol(chain: ChainHandle, asset: Address | 'native'): string | undefined {
  if (asset === 'native') return chain.nativeSymbol
  const lower = asset.toLowerCase()
  if (chain.contracts.weth?.toLowerCase() === lower) return chain.nativeSymbol
  return chain.contracts.tokens?.find((token) => token.address.toLowerCase() === lower)?.symbol
}
