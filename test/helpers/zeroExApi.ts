import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Devnet, uniswapV2RouterAbi } from '@agentwallet/devnet'
import {
  type Address,
  createPublicClient,
  custom,
  encodeFunctionData,
  getAddress,
  isAddressEqual,
} from 'viem'

const native = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

export type ZeroExRequest = { path: string; query: Record<string, string>; apiKey: string | undefined }

/**
 * A stand-in for the 0x Swap API v2 (`/swap/allowance-holder/{price,quote}`) on 127.0.0.1 — these
 * machines reach no internet API. It prices every request on the devnet's real `uniswap-v2` router
 * (`getAmountsOut`, direct pair) and answers firm quotes with that router's calldata, the router as
 * the spender, and `minBuyAmount` from `slippageBps`: so a swap through it really executes on chain.
 * `mode` makes it misbehave: `http_500`, `malformed`, `slow` (never answers), `wrong_value`.
 */
export async function startZeroExApi(devnet: Devnet, apiKey: string) {
  const client = createPublicClient({ transport: custom(devnet.provider) })
  const venue = devnet.addressBook.uniswapV2[0]!
  const weth = devnet.addressBook.weth
  const requests: ZeroExRequest[] = []
  const state: { mode: 'ok' | 'http_500' | 'malformed' | 'slow' | 'wrong_value' } = { mode: 'ok' }

  async function answer(path: string, query: Record<string, string>): Promise<[number, unknown]> {
    const sellNative = query.sellToken === native
    const buyNative = query.buyToken === native
    const sell = sellNative ? weth : getAddress(query.sellToken!)
    const buy = buyNative ? weth : getAddress(query.buyToken!)
    const sellAmount = BigInt(query.sellAmount!)
    const amounts = await client
      .readContract({
        address: venue.router,
        abi: uniswapV2RouterAbi,
        functionName: 'getAmountsOut',
        args: [sellAmount, [sell, buy]],
      })
      .catch(() => undefined)
    const buyAmount = amounts?.[1]
    if (!buyAmount) return [200, { liquidityAvailable: false, zid: '0x1' }]
    const minBuyAmount = (buyAmount * BigInt(10_000 - Number(query.slippageBps ?? 100))) / 10_000n
    const priced = {
      liquidityAvailable: true,
      buyAmount: buyAmount.toString(),
      sellAmount: query.sellAmount,
      minBuyAmount: minBuyAmount.toString(),
      route: { fills: [{ from: sell, to: buy, source: 'Uniswap_V2', proportionBps: '10000' }] },
      issues: { allowance: sellNative ? null : { actual: '0', spender: venue.router } },
    }
    if (path.endsWith('/price')) return [200, priced]
    const taker = getAddress(query.taker!)
    const deadline = 2n ** 48n
    const data = sellNative
      ? encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: 'swapExactETHForTokens',
          args: [minBuyAmount, [sell, buy], taker, deadline],
        })
      : encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: buyNative ? 'swapExactTokensForETH' : 'swapExactTokensForTokens',
          args: [sellAmount, minBuyAmount, [sell, buy], taker, deadline],
        })
    const value = sellNative ? sellAmount : 0n
    return [
      200,
      {
        ...priced,
        transaction: {
          to: venue.router,
          data,
          value: (state.mode === 'wrong_value' ? value + 1n : value).toString(),
          gas: '200000',
          gasPrice: '1000000000',
        },
      },
    ]
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    const query = Object.fromEntries(url.searchParams)
    const key = request.headers['0x-api-key']
    requests.push({ path: url.pathname, query, apiKey: typeof key === 'string' ? key : undefined })
    const send = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (key !== apiKey) return send(401, { name: 'UNAUTHORIZED', message: 'Invalid API key' })
    if (request.headers['0x-version'] !== 'v2') return send(400, { name: 'INPUT_INVALID' })
    if (!['/swap/allowance-holder/price', '/swap/allowance-holder/quote'].includes(url.pathname))
      return send(404, { name: 'NOT_FOUND' })
    if (state.mode === 'slow') return
    if (state.mode === 'http_500') return send(500, { name: 'INTERNAL_SERVER_ERROR' })
    if (state.mode === 'malformed') return send(200, { liquidityAvailable: true, buyAmount: 'lots' })
    if (Number(query.chainId) !== devnet.chain.id) return send(400, { name: 'CHAIN_NOT_SUPPORTED' })
    answer(url.pathname, query).then(
      ([status, body]) => send(status, body),
      () => send(500, { name: 'INTERNAL_SERVER_ERROR' }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    state,
    /** The spender its quotes name for ERC-20 sells. */
    spender: venue.router as Address,
    isRouter: (address: string) => isAddressEqual(address as Address, venue.router),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
