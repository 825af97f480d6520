import { type Address, encodeFunctionData, isAddressEqual } from 'viem'
import { isTransportError, toChainError } from '../chain/toChainError.js'
import { uniswapV2RouterAbi } from '../chain/uniswapV2Abi.js'
import type { QuoteRequest, QuoteSource, SwapQuote } from './quoteSource.js'

/**
 * Quotes every Uniswap-V2-style venue of the chain's address book with the router's
 * `getAmountsOut`, on the direct pair and through WETH; one quote per venue (its better path).
 * @example const quotes = await uniswapV2QuoteSource.quote(request)
 */
export const uniswapV2QuoteSource: QuoteSource = {
  name: 'uniswap-v2',
  async quote(request) {
    const venues = request.chain.contracts.uniswapV2 ?? []
    const quotes = await Promise.all(
      venues.map(async (venue) => {
        const amounts = await Promise.all(
          pathsOf(request).map((path) => amountOut(request, venue.router, path)),
        )
        let best: { path: readonly Address[]; out: bigint } | undefined
        for (const candidate of amounts)
          if (candidate && (!best || candidate.out > best.out)) best = candidate
        return best ? toQuote(request, venue.name, venue.router, best.path, best.out) : undefined
      }),
    )
    return quotes.filter((quote): quote is SwapQuote => quote !== undefined)
  },
}

function pathsOf({ chain, tokenIn, tokenOut }: QuoteRequest): Address[][] {
  const direct = [tokenIn.route, tokenOut.route]
  const weth = chain.contracts.weth
  if (!weth || isAddressEqual(tokenIn.route, weth) || isAddressEqual(tokenOut.route, weth)) return [direct]
  return [direct, [tokenIn.route, weth, tokenOut.route]]
}

async function amountOut(request: QuoteRequest, router: Address, path: Address[]) {
  try {
    const amounts = await request.chain.client.readContract({
      address: router,
      abi: uniswapV2RouterAbi,
      functionName: 'getAmountsOut',
      args: [request.amountIn, path],
    })
    const out = amounts[amounts.length - 1] ?? 0n
    return out > 0n ? { path, out } : undefined
  } catch (error) {
    // A missing pair or an empty pool reverts: that path has no quote. An unreachable node is an error.
    if (isTransportError(error)) throw toChainError(error, request.chain.name)
    return undefined
  }
}

function toQuote(
  request: QuoteRequest,
  venue: string,
  router: Address,
  path: readonly Address[],
  out: bigint,
): SwapQuote {
  const { tokenIn, tokenOut, amountIn } = request
  return {
    source: 'uniswap-v2',
    venue,
    amountOut: out,
    path,
    spender: router,
    trustedSpender: true,
    buildCall({ recipient, amountOutMin, deadline }) {
      const route = [...path]
      if (tokenIn.address === 'native') {
        const data = encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: 'swapExactETHForTokens',
          args: [amountOutMin, route, recipient, deadline],
        })
        return { to: router, value: amountIn, data }
      }
      const functionName =
        tokenOut.address === 'native' ? 'swapExactTokensForETH' : 'swapExactTokensForTokens'
      const data = encodeFunctionData({
        abi: uniswapV2RouterAbi,
        functionName,
        args: [amountIn, amountOutMin, route, recipient, deadline],
      })
      return { to: router, value: 0n, data }
    },
  }
}
