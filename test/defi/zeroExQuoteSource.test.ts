import { type AgentWallet, zeroExQuoteSource } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, erc20Abi, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  fundedWallet,
  publicClientOf,
  startDevnet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'
import { startZeroExApi } from '../helpers/zeroExApi.js'

const apiKey = 'zx-test-key-4f1c9a'
let devnet: Devnet
let api: Awaited<ReturnType<typeof startZeroExApi>>
/** Every venue of the address book plus the aggregator. */
let all: AgentWallet
/** The aggregator alone (the address book's DEX venues removed), so its quote is the one executed. */
let only: AgentWallet

beforeAll(async () => {
  devnet = await startDevnet()
  api = await startZeroExApi(devnet, apiKey)
  const source = zeroExQuoteSource({ apiKey, baseUrl: api.url, timeoutMs: 1_000 })
  all = await agentWalletOn(devnet, { quoteSources: [source] })
  const contracts = { ...devnet.addressBook, uniswapV2: [], uniswapV3: [] }
  only = await agentWalletOn(devnet, {
    quoteSources: [source],
    chains: { devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts } },
  })
})
afterAll(async () => {
  await all?.close()
  await only?.close()
  await api?.close()
  await devnet?.close()
})

const token = (symbol: string) => devnet.addressBook.tokens.find((t) => t.symbol === symbol)!.address
const balanceOf = (asset: Address, owner: Address) =>
  publicClientOf(devnet).readContract({
    address: asset,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })

describe('0x-style aggregator source', () => {
  it('is quoted beside the venues: an indicative price without a wallet, with the key and API version sent', async () => {
    const before = api.requests.length
    const quote = await all.quoteSwap({ fromToken: 'ETH', toToken: 'USDC', amount: '1' })
    expect(quote.quotes.map((q) => q.source).sort()).toEqual(['0x', 'uniswap-v2', 'uniswap-v2', 'uniswap-v3'])
    const zeroEx = quote.quotes.find((q) => q.source === '0x')!
    expect(zeroEx.venue).toBe('0x: Uniswap_V2')
    // It priced on the uniswap-v2 router: the same amount that venue quotes directly.
    expect(zeroEx.amountOutRaw).toBe(quote.quotes.find((q) => q.venue === 'uniswap-v2')!.amountOutRaw)
    const [asked] = api.requests.slice(before)
    expect(asked).toMatchObject({
      path: '/swap/allowance-holder/price',
      apiKey,
      query: {
        chainId: String(devnet.chain.id),
        sellToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
        buyToken: token('USDC'),
        sellAmount: parseEther('1').toString(),
        slippageBps: '50',
      },
    })
    expect(asked!.query.taker).toBeUndefined()
  })

  it('executes its calldata for ETH → USDC: a firm quote for the wallet as taker, mined on chain', async () => {
    const wallet = await fundedWallet(only, devnet, '3')
    const before = api.requests.length
    const result = withStatus(
      await only.swap({ fromToken: 'ETH', toToken: 'USDC', amount: '1', wallet: wallet.address }),
      'confirmed',
    )
    expect(result).toMatchObject({ status: 'confirmed', source: '0x', venue: '0x: Uniswap_V2' })
    expect(api.requests.slice(before).map((r) => [r.path, r.query.taker])).toEqual([
      ['/swap/allowance-holder/quote', wallet.address],
    ])
    expect(result.transaction).toMatchObject({
      kind: 'swap',
      to: api.spender,
      amountRaw: parseEther('1').toString(),
    })
    expect(await balanceOf(token('USDC'), wallet.address)).toBe(BigInt(result.amountOutRaw))
    expect(BigInt(result.amountOutRaw) >= BigInt(result.minAmountOutRaw)).toBe(true)
  })

  it('sells a token after an exact allowance to the spender the aggregator names, never an unlimited one', async () => {
    const wallet = await fundedWallet(only, devnet, '1')
    await devnet.mintToken(token('USDC'), wallet.address, parseUnits('300', 6))
    const result = withStatus(
      await only.swap({
        fromToken: 'USDC',
        toToken: 'DAI',
        amount: '100',
        wallet: wallet.address,
      }),
      'confirmed',
    )
    expect(result.status).toBe('confirmed')
    expect(result.allowanceTransaction).toMatchObject({
      kind: 'contract_call',
      status: 'confirmed',
      to: token('USDC'),
    })
    // The exact allowance was spent by the swap: nothing is left for the spender.
    const left = await publicClientOf(devnet).readContract({
      address: token('USDC'),
      abi: erc20Abi,
      functionName: 'allowance',
      args: [wallet.address, api.spender],
    })
    expect(left).toBe(0n)
    expect(await balanceOf(token('DAI'), wallet.address)).toBe(BigInt(result.amountOutRaw))
  })

  it('asks again with a tighter slippage when minAmountOut is above the quoted minBuyAmount', async () => {
    const wallet = await fundedWallet(only, devnet, '3')
    const quote = await only.quoteSwap({
      fromToken: 'ETH',
      toToken: 'USDC',
      amount: '0.5',
      wallet: wallet.address,
    })
    const quoted = BigInt(quote.best.amountOutRaw)
    // 0.1% below the quote: tighter than the default 0.5% the first firm quote guarantees.
    const minAmountOut = (quoted * 999n) / 1000n
    const before = api.requests.length
    const result = withStatus(
      await only.swap({
        fromToken: 'ETH',
        toToken: 'USDC',
        amount: '0.5',
        minAmountOut: (Number(minAmountOut) / 1e6).toFixed(6),
        wallet: wallet.address,
      }),
      'confirmed',
    )
    expect(result.status).toBe('confirmed')
    const asked = api.requests.slice(before).map((r) => Number(r.query.slippageBps))
    expect(asked).toHaveLength(2)
    expect(asked[1]!).toBeLessThan(asked[0]!)
    expect(asked[1]!).toBeLessThanOrEqual(10)
  })

  it('is listed as unavailable, without its key, when it fails, answers nonsense or is too slow; the venues still answer', async () => {
    try {
      for (const mode of ['http_500', 'malformed', 'slow'] as const) {
        api.state.mode = mode
        const quote = await all.quoteSwap({ fromToken: 'ETH', toToken: 'USDC', amount: '1' })
        expect(quote.unavailable).toEqual([
          { source: '0x', code: 'quote_source_unavailable', message: expect.any(String) },
        ])
        expect(JSON.stringify(quote)).not.toContain(apiKey)
        expect(quote.quotes.map((q) => q.source)).not.toContain('0x')
      }
      // With the aggregator as the only source, nothing quotes: no_route, naming why.
      api.state.mode = 'http_500'
      await expect(only.quoteSwap({ fromToken: 'ETH', toToken: 'USDC', amount: '1' })).rejects.toMatchObject({
        code: 'no_route',
        details: { unavailable: [{ source: '0x', code: 'quote_source_unavailable' }] },
      })
    } finally {
      api.state.mode = 'ok'
    }
  })

  it('refuses calldata whose value is not the amount sold, sending nothing', async () => {
    const wallet = await fundedWallet(only, devnet, '3')
    api.state.mode = 'wrong_value'
    try {
      await expect(
        only.swap({ fromToken: 'ETH', toToken: 'USDC', amount: '1', wallet: wallet.address }),
      ).rejects.toMatchObject({ code: 'quote_source_unavailable' })
      expect((await only.listHistory({ wallet: wallet.address })).count).toBe(0)
    } finally {
      api.state.mode = 'ok'
    }
  })

  it('is unavailable with a wrong API key, and says so without echoing the key', async () => {
    const wrong = zeroExQuoteSource({ apiKey: 'not-the-key-77', baseUrl: api.url })
    const withWrongKey = await agentWalletOn(devnet, { quoteSources: [wrong] })
    try {
      const quote = await withWrongKey.quoteSwap({ fromToken: 'ETH', toToken: 'USDC', amount: '1' })
      expect(quote.unavailable).toEqual([
        { source: '0x', code: 'quote_source_unavailable', message: '0x answered HTTP 401' },
      ])
      expect(JSON.stringify(quote)).not.toContain('not-the-key-77')
    } finally {
      await withWrongKey.close()
    }
  })
})
