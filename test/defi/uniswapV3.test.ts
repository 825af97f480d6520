import { type AgentWallet, type QuoteSource, uniswapV3QuoteSource } from '@agentwallet/core'
import { type Devnet, devnetV3Pools, uniswapV3QuoterV2Abi } from '@agentwallet/devnet'
import { type Address, encodePacked, erc20Abi, parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

// A devnet of its own: every swap here moves the V3 pools' prices, and the cases assert where V3 wins.
let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

const token = (symbol: string) => devnet.addressBook.tokens.find((t) => t.symbol === symbol)!.address
const v3 = () => devnet.addressBook.uniswapV3[0]!
const feeOf = (symbol: 'USDC' | 'DAI') => devnetV3Pools.find((pool) => pool.quote === symbol)!.fee

/** QuoterV2's own answer for a path of [token, fee, token, ...], asked directly. */
async function quoterSays(path: (Address | number)[], amountIn: bigint): Promise<bigint> {
  const types = path.map((_, index) => (index % 2 === 0 ? 'address' : 'uint24'))
  const { result } = await publicClientOf(devnet).simulateContract({
    address: v3().quoter,
    abi: uniswapV3QuoterV2Abi,
    functionName: 'quoteExactInput',
    args: [encodePacked(types, path), amountIn],
  })
  return result[0]
}

const balanceOf = (asset: Address, owner: Address) =>
  publicClientOf(devnet).readContract({
    address: asset,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })

describe('Uniswap V3 venue', () => {
  it('wins ETH→DAI on one pool; the router wraps the ETH it is sent', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    const dai = token('DAI')
    const expected = await quoterSays([devnet.addressBook.weth, feeOf('DAI'), dai], parseEther('1'))

    const quote = await aw.quoteSwap({
      fromToken: 'ETH',
      toToken: 'DAI',
      amount: '1',
      wallet: wallet.address,
    })
    expect(quote.best).toMatchObject({
      source: 'uniswap-v3',
      venue: 'uniswap-v3',
      amountOutRaw: expected.toString(),
      path: [devnet.addressBook.weth, dai],
      fees: [feeOf('DAI')],
    })
    // The V2 venues were asked too, and quote less.
    const others = quote.quotes.filter((q) => q.venue !== 'uniswap-v3')
    expect(others.map((q) => q.venue).sort()).toEqual(['sushiswap', 'uniswap-v2'])
    for (const other of others) expect(BigInt(other.amountOutRaw) < expected).toBe(true)

    const result = await aw.swap({ fromToken: 'ETH', toToken: 'DAI', amount: '1', wallet: wallet.address })
    expect(result).toMatchObject({
      status: 'confirmed',
      venue: 'uniswap-v3',
      amountOutRaw: expected.toString(),
    })
    expect(result.transaction).toMatchObject({
      kind: 'swap',
      to: v3().router,
      amountRaw: parseEther('1').toString(),
    })
    expect(result.allowanceTransaction).toBeNull()
    expect(await balanceOf(dai, wallet.address)).toBe(expected)
  })

  it('routes USDC→DAI through WETH over two pools, after an approve of SwapRouter02 it spends in full', async () => {
    const wallet = await fundedWallet(aw, devnet, '1')
    const [usdc, dai, weth] = [token('USDC'), token('DAI'), devnet.addressBook.weth]
    await devnet.mintToken(usdc, wallet.address, parseUnits('500', 6))
    const expected = await quoterSays([usdc, feeOf('USDC'), weth, feeOf('DAI'), dai], parseUnits('200', 6))

    const result = await aw.swap({ fromToken: 'USDC', toToken: 'DAI', amount: '200', wallet: wallet.address })
    expect(result).toMatchObject({
      status: 'confirmed',
      venue: 'uniswap-v3',
      best: { path: [usdc, weth, dai], fees: [feeOf('USDC'), feeOf('DAI')] },
      amountOutRaw: expected.toString(),
    })
    expect(result.allowanceTransaction).toMatchObject({
      kind: 'contract_call',
      to: usdc,
      status: 'confirmed',
    })
    const allowance = await publicClientOf(devnet).readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [wallet.address, v3().router],
    })
    // It approved exactly what the swap spent: no allowance is left to the router.
    expect(allowance).toBe(0n)
    expect(await balanceOf(dai, wallet.address)).toBe(expected)
    expect(await balanceOf(usdc, wallet.address)).toBe(parseUnits('300', 6))
  })

  it('pays out native ETH for a token (swap to the router, then unwrapWETH9 to the wallet)', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '1')
    const usdc = token('USDC')
    await devnet.mintToken(usdc, wallet.address, parseUnits('3000', 6))
    const expected = await quoterSays([usdc, feeOf('USDC'), devnet.addressBook.weth], parseUnits('3000', 6))
    const before = await client.getBalance({ address: wallet.address })

    const result = await aw.swap({ fromToken: usdc, toToken: 'ETH', amount: '3000', wallet: wallet.address })
    expect(result).toMatchObject({
      status: 'confirmed',
      venue: 'uniswap-v3',
      amountOutRaw: expected.toString(),
    })
    expect(result.toToken.address).toBe('native')
    const receipt = await client.getTransactionReceipt({ hash: result.transaction!.hash! })
    const approveReceipt = await client.getTransactionReceipt({ hash: result.allowanceTransaction!.hash! })
    const gas =
      receipt.gasUsed * receipt.effectiveGasPrice + approveReceipt.gasUsed * approveReceipt.effectiveGasPrice
    expect((await client.getBalance({ address: wallet.address })) - before).toBe(expected - gas)
    // Nothing stays behind in the router.
    expect(await balanceOf(devnet.addressBook.weth, v3().router)).toBe(0n)
  })

  it('leaves the slippage bound and the deadline to the router: a swap that breaks either is never sent', async () => {
    // Two misbehaving wrappers of the real V3 source: one promises 5% more than the pool gives,
    // one signs a deadline already past. Both make the router revert, so simulation refuses them.
    const wrapped = (
      name: string,
      change: (quote: Awaited<ReturnType<QuoteSource['quote']>>[number]) => object,
    ) =>
      ({
        name,
        async quote(request) {
          const quotes = await uniswapV3QuoteSource.quote(request)
          return quotes.map((quote) => ({ ...quote, venue: name, ...change(quote) }))
        },
      }) satisfies QuoteSource
    const optimistic = wrapped('optimistic-v3', (quote) => ({ amountOut: (quote.amountOut * 105n) / 100n }))
    const stale = wrapped('stale-v3', (quote) => ({
      amountOut: quote.amountOut + 1n,
      buildCall: (parameters: Parameters<typeof quote.buildCall>[0]) =>
        quote.buildCall({ ...parameters, deadline: 1n }),
    }))
    for (const [source, reason] of [
      [optimistic, 'Too little received'],
      [stale, 'Transaction too old'],
    ] as const) {
      const withSource = await agentWalletOn(devnet, { quoteSources: [source] })
      try {
        const wallet = await fundedWallet(withSource, devnet, '5')
        const quote = await withSource.quoteSwap({ fromToken: 'ETH', toToken: 'DAI', amount: '1' })
        expect(quote.best.venue).toBe(source.name)
        await expect(
          withSource.swap({ fromToken: 'ETH', toToken: 'DAI', amount: '1', wallet: wallet.address }),
        ).rejects.toMatchObject({
          code: 'transaction_failed',
          details: { reason: expect.stringContaining(reason) },
        })
        expect((await withSource.listHistory({ wallet: wallet.address })).count).toBe(0)
        expect(await balanceOf(token('DAI'), wallet.address)).toBe(0n)
      } finally {
        await withSource.close()
      }
    }
  })
})

describe('Uniswap V3 pool lookups', () => {
  it('asks the factory which pools exist once; a warm quote asks only the quoter', async () => {
    const asked: string[] = []
    const provider = {
      request(args: { method: string; params?: unknown }) {
        const [call] = (args.params ?? []) as [{ to?: string }?]
        if (args.method === 'eth_call' && call?.to) asked.push(call.to.toLowerCase())
        return devnet.provider.request(args as Parameters<Devnet['provider']['request']>[0])
      },
    }
    const counted = await agentWalletOn(devnet, {
      chains: {
        devnet: { provider, chainId: devnet.chain.id, contracts: { ...devnet.addressBook, uniswapV2: [] } },
      },
    })
    try {
      const factoryCalls = () => asked.filter((to) => to === v3().factory.toLowerCase()).length
      const quoterCalls = () => asked.filter((to) => to === v3().quoter.toLowerCase()).length
      const cold = await counted.quoteSwap({ fromToken: 'USDC', toToken: 'DAI', amount: '10' })
      // Four tiers for each of USDC/DAI, USDC/WETH and WETH/DAI; one two-hop route exists.
      expect(factoryCalls()).toBe(12)
      expect(quoterCalls()).toBe(1)
      const warm = await counted.quoteSwap({ fromToken: 'USDC', toToken: 'DAI', amount: '10' })
      expect(factoryCalls()).toBe(12)
      expect(quoterCalls()).toBe(2)
      expect(warm.best).toEqual(cold.best)
    } finally {
      await counted.close()
    }
  })
})
