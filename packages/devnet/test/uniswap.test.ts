import {
  type Address,
  encodeAbiParameters,
  erc20Abi,
  formatUnits,
  getContractAddress,
  keccak256,
  parseAbiParameters,
  parseEther,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createDevnet,
  type Devnet,
  devnetV3Pools,
  swapRouter02Abi,
  uniswapV2FactoryAbi,
  uniswapV2RouterAbi,
  uniswapV3FactoryAbi,
  uniswapV3QuoterV2Abi,
} from '../src/index.js'
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

describe('Uniswap V3 venue', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet()
  })
  afterAll(() => devnet.close())

  const poolInitCodeHash = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54'

  it('puts each seeded pool where the periphery computes it, priced as configured', async () => {
    const { publicClient } = clientsFor(devnet)
    const { weth, tokens, uniswapV3 } = devnet.addressBook
    const [venue] = uniswapV3
    expect(uniswapV3.map((v) => v.name)).toEqual(['uniswap-v3'])
    for (const pool of devnetV3Pools) {
      const token = tokens.find((t) => t.symbol === pool.quote)!
      const [token0, token1] =
        weth.toLowerCase() < token.address.toLowerCase() ? [weth, token.address] : [token.address, weth]
      const address = await publicClient.readContract({
        address: venue!.factory,
        abi: uniswapV3FactoryAbi,
        functionName: 'getPool',
        args: [token0, token1, pool.fee],
      })
      const salt = keccak256(
        encodeAbiParameters(parseAbiParameters('address, address, uint24'), [token0, token1, pool.fee]),
      )
      expect(address).toBe(
        getContractAddress({ opcode: 'CREATE2', from: venue!.factory, salt, bytecodeHash: poolInitCodeHash }),
      )
      // A tiny sell shows the pool's mid price: ~ethPrice per ETH, less the fee.
      const [out] = await quoteSingle(devnet, weth, token.address, pool.fee, parseEther('0.001'))
      const perEth = Number(formatUnits(out * 1000n, token.decimals))
      expect(perEth).toBeGreaterThan(Number(pool.ethPrice) * 0.999)
      expect(perEth).toBeLessThan(Number(pool.ethPrice))
    }
  })

  it('swaps ETH for DAI through SwapRouter02 for exactly what QuoterV2 quoted', async () => {
    const { publicClient, wallet } = clientsFor(devnet)
    const trader = wallet(2)
    const { weth, tokens, uniswapV3 } = devnet.addressBook
    const dai = tokens.find((t) => t.symbol === 'DAI')!.address
    const fee = devnetV3Pools.find((pool) => pool.quote === 'DAI')!.fee
    const [quoted] = await quoteSingle(devnet, weth, dai, fee, parseEther('1'))
    const balance = () =>
      publicClient.readContract({
        address: dai,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [trader.account.address],
      })
    const before = await balance()
    const hash = await trader.writeContract({
      address: uniswapV3[0]!.router,
      abi: swapRouter02Abi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: weth,
          tokenOut: dai,
          fee,
          recipient: trader.account.address,
          amountIn: parseEther('1'),
          amountOutMinimum: quoted,
          sqrtPriceLimitX96: 0n,
        },
      ],
      value: parseEther('1'),
    })
    expect((await publicClient.getTransactionReceipt({ hash })).status).toBe('success')
    expect((await balance()) - before).toBe(quoted)
  })
})

async function quoteSingle(
  devnet: Devnet,
  tokenIn: Address,
  tokenOut: Address,
  fee: number,
  amountIn: bigint,
) {
  const { publicClient } = clientsFor(devnet)
  const { result } = await publicClient.simulateContract({
    address: devnet.addressBook.uniswapV3[0]!.quoter,
    abi: uniswapV3QuoterV2Abi,
    functionName: 'quoteExactInputSingle',
    args: [{ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n }],
  })
  return result
}
