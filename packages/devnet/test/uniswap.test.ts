import { erc20Abi, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet, uniswapV2FactoryAbi, uniswapV2RouterAbi } from '../src/index.js'
import { clientsFor } from './clients.js'

describe('Uniswap V2 venues', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet()
  })
  afterAll(() => devnet.close())

  it('quotes different prices on the two venues and swaps ETH for USDC on each', async () => {
    const { publicClient, wallet } = clientsFor(devnet)
    const trader = wallet(1)
    const { weth, tokens, uniswapV2 } = devnet.addressBook
    const usdc = tokens.find((t) => t.symbol === 'USDC')!
    expect(uniswapV2.map((v) => v.name)).toEqual(['uniswap-v2', 'sushiswap'])

    const path = [weth, usdc.address] as const
    const quotes: bigint[] = []
    for (const venue of uniswapV2) {
      const pair = await publicClient.readContract({
        address: venue.factory,
        abi: uniswapV2FactoryAbi,
        functionName: 'getPair',
        args: path,
      })
      expect(await publicClient.getCode({ address: pair })).toMatch(/^0x.+/)
      const [, out] = await publicClient.readContract({
        address: venue.router,
        abi: uniswapV2RouterAbi,
        functionName: 'getAmountsOut',
        args: [parseEther('1'), path],
      })
      quotes.push(out!)

      const before = await publicClient.readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [trader.account.address],
      })
      const hash = await trader.writeContract({
        address: venue.router,
        abi: uniswapV2RouterAbi,
        functionName: 'swapExactETHForTokens',
        args: [out!, path, trader.account.address, 2n ** 64n],
        value: parseEther('1'),
      })
      const receipt = await publicClient.getTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      const after = await publicClient.readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [trader.account.address],
      })
      expect(after - before).toBe(out)
    }
    // ~3000 USDC per ETH on uniswap-v2, ~0.5% more on sushiswap (less the 0.3% fee and slippage).
    expect(quotes[0]! > 2_900_000_000n && quotes[0]! < 3_000_000_000n).toBe(true)
    expect(quotes[1]! > quotes[0]!).toBe(true)
  })
})
