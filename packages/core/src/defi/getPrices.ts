import { type Address, formatUnits, zeroAddress } from 'viem'
import type { z } from 'zod'
import { isValidRound, readPriceFeed } from '../chain/readPriceFeed.js'
import { isRevert, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { uniswapV2FactoryAbi, uniswapV2PairAbi } from '../chain/uniswapV2Abi.js'
import { usdPriceFeedOf } from '../chain/usdPriceFeedOf.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import type { pricesSchema } from './defiSchemas.js'
import { resolveSwapToken, type SwapToken } from './resolveSwapToken.js'

/** Tokens taken as one US dollar when a DEX mid-price stands in for a missing feed. */
const usdLike = ['USDC', 'USDT', 'DAI']
/** Digits a DEX mid-price keeps (it is a ratio of reserves, not a feed answer). */
const midPriceDecimals = 18

export type PriceSource =
  | { type: 'chainlink'; feed: Address; pair: string; roundId: string }
  | { type: 'dex_mid_price'; venue: string; pair: Address; quoteToken: Address; quoteSymbol: string }

export type TokenPrice =
  | {
      token: string
      symbol: string
      address: string
      /** USD per whole token, a decimal string. */
      price: string
      currency: 'USD'
      source: PriceSource
      updatedAt: string
      error?: undefined
    }
  | { token: string; error: { code: 'not_found' | 'no_price_source' | 'invalid_price'; message: string } }

export type GetPricesReturnType = { chain: string; prices: TokenPrice[] }

/**
 * USD prices of `tokens` from Chainlink-style feeds (`<SYMBOL>/USD` in the address book, for the
 * native coin, WETH and the address book's tokens: see `usdPriceFeedOf`), else the
 * mid-price of a Uniswap-V2 pool against a USD stablecoin. Each token that cannot be priced gets its
 * own error entry (`not_found`, `no_price_source`, `invalid_price`): never a made-up price.
 * @example const { prices } = await getPrices(ctx, principal, { tokens: ['ETH', 'USDC'] })
 */
export async function getPrices(
  ctx: AgentWalletContext,
  _principal: unknown,
  input: z.output<typeof pricesSchema>,
): Promise<GetPricesReturnType> {
  const chain = ctx.chains.get(input.chain ?? ctx.chains.defaultChain)
  const prices = await Promise.all(input.tokens.map((token) => priceOf(chain, token)))
  return { chain: chain.name, prices }
}

async function priceOf(chain: ChainHandle, input: string): Promise<TokenPrice> {
  let token: SwapToken
  try {
    token = await resolveSwapToken(chain, input)
  } catch (error) {
    if (error instanceof BaseError && error.code === 'validation_failed') {
      return {
        token: input,
        error: { code: 'not_found', message: `Unknown token "${input}" on ${chain.name}` },
      }
    }
    throw error
  }
  try {
    return (
      (await fromFeed(chain, input, token)) ??
      (await fromDex(chain, input, token)) ?? {
        token: input,
        error: {
          code: 'no_price_source',
          message: `No price feed or USD pool for ${token.symbol} on ${chain.name}`,
        },
      }
    )
  } catch (error) {
    if (error instanceof BaseError) throw error
    // A feed or pool that reverts cannot price the token: its own entry says so, the others still answer.
    if (isRevert(error)) {
      return {
        token: input,
        error: { code: 'invalid_price', message: `The price source of ${token.symbol} reverted` },
      }
    }
    throw toChainError(error, chain.name, { read: true })
  }
}

async function fromFeed(
  chain: ChainHandle,
  input: string,
  token: SwapToken,
): Promise<TokenPrice | undefined> {
  const ref = usdPriceFeedOf(chain, token.address)
  if (!ref) return undefined
  const round = await readPriceFeed(chain, ref)
  if (!isValidRound(round)) {
    return {
      token: input,
      error: { code: 'invalid_price', message: `The ${ref.pair} feed has no valid answer` },
    }
  }
  return {
    token: input,
    symbol: token.symbol,
    address: token.address,
    price: formatUnits(round.answer, round.decimals),
    currency: 'USD',
    source: { type: 'chainlink', feed: ref.feed, pair: ref.pair, roundId: round.roundId.toString() },
    updatedAt: new Date(Number(round.updatedAt) * 1000).toISOString(),
  }
}

async function fromDex(chain: ChainHandle, input: string, token: SwapToken): Promise<TokenPrice | undefined> {
  const quotes = (chain.contracts.tokens ?? []).filter(
    (candidate) =>
      usdLike.includes(candidate.symbol.toUpperCase()) &&
      candidate.address.toLowerCase() !== token.route.toLowerCase(),
  )
  for (const venue of chain.contracts.uniswapV2 ?? []) {
    for (const quote of quotes) {
      const pair = await chain.client.readContract({
        address: venue.factory,
        abi: uniswapV2FactoryAbi,
        functionName: 'getPair',
        args: [token.route, quote.address],
      })
      if (pair === zeroAddress) continue
      const [token0, [reserve0, reserve1, timestamp]] = await Promise.all([
        chain.client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'token0' }),
        chain.client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'getReserves' }),
      ])
      const tokenIsZero = token0.toLowerCase() === token.route.toLowerCase()
      const [reserveToken, reserveQuote] = tokenIsZero ? [reserve0, reserve1] : [reserve1, reserve0]
      if (reserveToken === 0n || reserveQuote === 0n) continue
      // quote per token, in whole units, kept to 18 decimals with integer arithmetic only.
      const scaled =
        (reserveQuote * 10n ** BigInt(token.decimals) * 10n ** BigInt(midPriceDecimals)) /
        (reserveToken * 10n ** BigInt(quote.decimals))
      return {
        token: input,
        symbol: token.symbol,
        address: token.address,
        price: formatUnits(scaled, midPriceDecimals),
        currency: 'USD',
        source: {
          type: 'dex_mid_price',
          venue: venue.name,
          pair,
          quoteToken: quote.address,
          quoteSymbol: quote.symbol,
        },
        updatedAt: new Date(timestamp * 1000).toISOString(),
      }
    }
  }
  return undefined
}
