import {
  type Address,
  concat,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  numberToHex,
  zeroAddress,
} from 'viem'
import { isTransportError, toChainError } from '../chain/toChainError.js'
import { swapRouter02Abi, uniswapV3FactoryAbi, uniswapV3QuoterAbi } from '../chain/uniswapV3Abi.js'
import type { QuoteRequest, QuoteSource, SwapQuote } from './quoteSource.js'

type Venue = NonNullable<QuoteRequest['chain']['contracts']['uniswapV3']>[number]

/** The fee tiers Uniswap V3 deploys on every chain, in hundredths of a basis point. */
export const uniswapV3FeeTiers = [100, 500, 3000, 10000] as const

/** SwapRouter02's stand-in recipient for "the router itself" (Constants.ADDRESS_THIS). */
const routerItself: Address = '0x0000000000000000000000000000000000000002'

/** One candidate route: the tokens it passes through and the fee tier of each hop. */
type Route = { tokens: Address[]; fees: number[] }

/**
 * Quotes every Uniswap-V3 venue of the chain's address book with its QuoterV2: every fee tier of the
 * direct pair and every pair of tiers through WETH, among the pools the factory has. One quote per
 * venue (its best route); swaps go through SwapRouter02 inside a deadline-checked `multicall`.
 * @example const quotes = await uniswapV3QuoteSource.quote(request)
 */
export const uniswapV3QuoteSource: QuoteSource = {
  name: 'uniswap-v3',
  async quote(request) {
    const venues = request.chain.contracts.uniswapV3 ?? []
    const quotes = await Promise.all(
      venues.map(async (venue) => {
        const routes = await routesOf(request, venue)
        const outs = await Promise.all(routes.map((route) => amountOut(request, venue, route)))
        let best: { route: Route; out: bigint } | undefined
        outs.forEach((out, index) => {
          if (out > 0n && (!best || out > best.out)) best = { route: routes[index]!, out }
        })
        return best ? toQuote(request, venue, best.route, best.out) : undefined
      }),
    )
    return quotes.filter((quote): quote is SwapQuote => quote !== undefined)
  },
}

/** The direct pools and the two-hop routes through WETH that exist on this venue's factory. */
async function routesOf(request: QuoteRequest, venue: Venue): Promise<Route[]> {
  const { chain, tokenIn, tokenOut } = request
  const weth = chain.contracts.weth
  const [from, to] = [tokenIn.route, tokenOut.route]
  const viaWeth = weth && !isAddressEqual(from, weth) && !isAddressEqual(to, weth)
  const [direct, firstHop, secondHop] = await Promise.all([
    poolFees(request, venue, from, to),
    viaWeth ? poolFees(request, venue, from, weth) : [],
    viaWeth ? poolFees(request, venue, weth, to) : [],
  ])
  const routes: Route[] = direct.map((fee) => ({ tokens: [from, to], fees: [fee] }))
  if (weth)
    for (const first of firstHop)
      for (const second of secondHop) routes.push({ tokens: [from, weth, to], fees: [first, second] })
  return routes
}

/** How long "no pool" is believed: pools get created, never removed (a found pool is kept for good). */
const missingPoolTtlMs = 60_000
/** Per chain client: `factory:tokenA:tokenB:fee` → the pool, or when a lookup last found none. */
const poolCache = new WeakMap<object, Map<string, { pool: Address } | { missingSince: number }>>()

/** The fee tiers for which the factory has a pool of `a` and `b` (remembered, so a warm quote asks the quoter only). */
async function poolFees(request: QuoteRequest, venue: Venue, a: Address, b: Address): Promise<number[]> {
  const { client } = request.chain
  const known = poolCache.get(client) ?? new Map()
  poolCache.set(client, known)
  const [first, second] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]
  const found = await Promise.all(
    uniswapV3FeeTiers.map(async (fee) => {
      const key = `${venue.factory}:${first}:${second}:${fee}`.toLowerCase()
      const entry = known.get(key)
      if (entry && 'pool' in entry) return true
      if (entry && Date.now() - entry.missingSince < missingPoolTtlMs) return false
      const pool = await client
        .readContract({
          address: venue.factory,
          abi: uniswapV3FactoryAbi,
          functionName: 'getPool',
          args: [a, b, fee],
        })
        .catch((error: unknown) => {
          throw toChainError(error, request.chain.name)
        })
      known.set(key, pool === zeroAddress ? { missingSince: Date.now() } : { pool })
      return pool !== zeroAddress
    }),
  )
  return uniswapV3FeeTiers.filter((_, index) => found[index])
}

async function amountOut(request: QuoteRequest, venue: Venue, route: Route): Promise<bigint> {
  const { client } = request.chain
  try {
    if (route.fees.length === 1) {
      const { result } = await client.simulateContract({
        address: venue.quoter,
        abi: uniswapV3QuoterAbi,
        functionName: 'quoteExactInputSingle',
        args: [
          {
            tokenIn: route.tokens[0]!,
            tokenOut: route.tokens[1]!,
            amountIn: request.amountIn,
            fee: route.fees[0]!,
            sqrtPriceLimitX96: 0n,
          },
        ],
      })
      return result[0]
    }
    const { result } = await client.simulateContract({
      address: venue.quoter,
      abi: uniswapV3QuoterAbi,
      functionName: 'quoteExactInput',
      args: [encodePath(route), request.amountIn],
    })
    return result[0]
  } catch (error) {
    // A pool without liquidity in range reverts: that route has no quote. An unreachable node is an error.
    if (isTransportError(error)) throw toChainError(error, request.chain.name)
    return 0n
  }
}

/** The packed path of `exactInput`: token, fee (uint24), token, fee, token... */
function encodePath({ tokens, fees }: Route): Hex {
  return concat(
    tokens.flatMap((token, index) =>
      index < fees.length ? [token, numberToHex(fees[index]!, { size: 3 })] : [token],
    ),
  )
}

function toQuote(request: QuoteRequest, venue: Venue, route: Route, out: bigint): SwapQuote {
  const { tokenIn, tokenOut, amountIn } = request
  return {
    source: 'uniswap-v3',
    venue: venue.name,
    amountOut: out,
    path: route.tokens,
    fees: route.fees,
    spender: venue.router,
    trustedSpender: true,
    buildCall({ recipient, amountOutMin, deadline }) {
      // Native out: the router keeps the WETH, then unwraps it to the recipient (checked again there).
      const nativeOut = tokenOut.address === 'native'
      const swapRecipient = nativeOut ? routerItself : recipient
      const swapData =
        route.fees.length === 1
          ? encodeFunctionData({
              abi: swapRouter02Abi,
              functionName: 'exactInputSingle',
              args: [
                {
                  tokenIn: route.tokens[0]!,
                  tokenOut: route.tokens[1]!,
                  fee: route.fees[0]!,
                  recipient: swapRecipient,
                  amountIn,
                  amountOutMinimum: amountOutMin,
                  sqrtPriceLimitX96: 0n,
                },
              ],
            })
          : encodeFunctionData({
              abi: swapRouter02Abi,
              functionName: 'exactInput',
              args: [
                {
                  path: encodePath(route),
                  recipient: swapRecipient,
                  amountIn,
                  amountOutMinimum: amountOutMin,
                },
              ],
            })
      const calls = nativeOut
        ? [
            swapData,
            encodeFunctionData({
              abi: swapRouter02Abi,
              functionName: 'unwrapWETH9',
              args: [amountOutMin, recipient],
            }),
          ]
        : [swapData]
      const data = encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'multicall',
        args: [deadline, calls],
      })
      // Native in: the router wraps the ETH it is sent to pay the first pool.
      return { to: venue.router, value: tokenIn.address === 'native' ? amountIn : 0n, data }
    },
  }
}
