import { type Address, encodeFunctionData, maxUint256, parseEther, parseUnits } from 'viem'
import { testTokenAbi } from './abis/testTokenAbi.js'
import { uniswapV2RouterAbi } from './abis/uniswapV2RouterAbi.js'
import { wethAbi } from './abis/wethAbi.js'
import type { Deployer } from './createDeployer.js'
import { loadArtifact } from './loadArtifact.js'

/**
 * Two venues running the same official bytecode with slightly different prices, so a best-quote
 * aggregator has a real choice: sushiswap prices ETH 0.5% higher than uniswap-v2.
 */
export const devnetVenues = [
  { name: 'uniswap-v2', ethUsd: 3000n, usdcPerDai: [1_000_000n, 1_000_000n] },
  { name: 'sushiswap', ethUsd: 3015n, usdcPerDai: [1_002_000n, 1_000_000n] },
] as const

const ethPerPool = 100n

/** Deploys factory + router per venue and seeds WETH/USDC, WETH/DAI and USDC/DAI pools. */
export async function deployUniswapV2(
  deployer: Deployer,
  { weth, usdc, dai }: { weth: Address; usdc: Address; dai: Address },
) {
  const factoryArtifact = loadArtifact('uniswap-v2-core', 'UniswapV2Factory')
  const routerArtifact = loadArtifact('uniswap-v2-periphery', 'UniswapV2Router02')
  const call = (to: Address, data: `0x${string}`, value?: bigint) => deployer.send({ to, data, value })

  // Enough of every asset for all pools of both venues.
  await call(weth, encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }), parseEther('1000'))
  for (const token of [usdc, dai]) {
    const amount = parseUnits('100000000', token === usdc ? 6 : 18)
    await call(
      token,
      encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [deployer.address, amount] }),
    )
  }

  const venues: { name: string; factory: Address; router: Address }[] = []
  for (const venue of devnetVenues) {
    const factory = await deployer.deploy(factoryArtifact, [deployer.address])
    const router = await deployer.deploy(routerArtifact, [factory, weth])
    for (const token of [weth, usdc, dai]) {
      await call(
        token,
        encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [router, maxUint256] }),
      )
    }
    const [usdcSide, daiSide] = venue.usdcPerDai
    const pools: [Address, bigint, Address, bigint][] = [
      [weth, parseEther(ethPerPool.toString()), usdc, parseUnits((ethPerPool * venue.ethUsd).toString(), 6)],
      [weth, parseEther(ethPerPool.toString()), dai, parseEther((ethPerPool * venue.ethUsd).toString())],
      [usdc, parseUnits(usdcSide.toString(), 6), dai, parseEther(daiSide.toString())],
    ]
    for (const [tokenA, amountA, tokenB, amountB] of pools) {
      const args = [tokenA, tokenB, amountA, amountB, amountA, amountB, deployer.address, maxUint256] as const
      await call(router, encodeFunctionData({ abi: uniswapV2RouterAbi, functionName: 'addLiquidity', args }))
    }
    venues.push({ name: venue.name, factory, router })
  }
  return venues
}
