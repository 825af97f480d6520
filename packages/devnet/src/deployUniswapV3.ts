import { type Address, encodeFunctionData, maxUint256, parseEther, parseUnits, zeroAddress } from 'viem'
import { testTokenAbi } from './abis/testTokenAbi.js'
import { uniswapV3FactoryAbi } from './abis/uniswapV3FactoryAbi.js'
import { uniswapV3PositionManagerAbi } from './abis/uniswapV3PositionManagerAbi.js'
import { wethAbi } from './abis/wethAbi.js'
import type { Deployer } from './createDeployer.js'
import { loadArtifact } from './loadArtifact.js'

/**
 * The devnet's Uniswap V3 pools: full-range positions of 1,000 ETH against the quote token, ten times
 * the V2 pools' depth, so a test's swap barely moves them. Prices differ from the V2 venues on purpose,
 * so each kind of route wins somewhere: ETH→USDC is best on sushiswap (V3 prices ETH at 2950),
 * ETH→DAI on V3 (one pool, 3030), USDC→DAI on V3 through WETH (two pools), USDC→ETH on V3 (paid out
 * as native ETH).
 */
export const devnetV3Pools = [
  { quote: 'USDC', fee: 500, ethPrice: 2950n },
  { quote: 'DAI', fee: 500, ethPrice: 3030n },
] as const

const ethPerPool = 1000n
/** TickMath.MAX_TICK; a full-range position uses the largest multiple of the fee's tick spacing below it. */
const maxTick = 887272
const tickSpacing: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }

/**
 * Deploys the Uniswap V3 stack from the published npm bytecode (whose pool init-code hash is the one
 * the periphery hard-codes): UniswapV3Factory (with the 0.01% tier mainnet enabled later),
 * NonfungiblePositionManager (no token descriptor: tokenURI is never called), QuoterV2 and
 * SwapRouter02 (its V2 half routes through `v2Factory`), then seeds {@link devnetV3Pools}.
 */
export async function deployUniswapV3(
  deployer: Deployer,
  { weth, usdc, dai, v2Factory }: { weth: Address; usdc: Address; dai: Address; v2Factory: Address },
) {
  const call = (to: Address, data: `0x${string}`, value?: bigint) => deployer.send({ to, data, value })
  const factory = await deployer.deploy(loadArtifact('uniswap-v3-core', 'UniswapV3Factory'))
  await call(
    factory,
    encodeFunctionData({ abi: uniswapV3FactoryAbi, functionName: 'enableFeeAmount', args: [100, 1] }),
  )
  const positionManager = await deployer.deploy(
    loadArtifact('uniswap-v3-periphery', 'NonfungiblePositionManager'),
    [factory, weth, zeroAddress],
  )
  const quoter = await deployer.deploy(loadArtifact('uniswap-v3-periphery', 'QuoterV2'), [factory, weth])
  const router = await deployer.deploy(loadArtifact('uniswap-swap-router', 'SwapRouter02'), [
    v2Factory,
    factory,
    positionManager,
    weth,
  ])

  const quoteTokens = { USDC: { address: usdc, decimals: 6 }, DAI: { address: dai, decimals: 18 } }
  const eth = parseEther(ethPerPool.toString())
  await call(
    weth,
    encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }),
    eth * BigInt(devnetV3Pools.length),
  )
  await call(
    weth,
    encodeFunctionData({ abi: wethAbi, functionName: 'approve', args: [positionManager, maxUint256] }),
  )
  for (const pool of devnetV3Pools) {
    const quote = quoteTokens[pool.quote]
    const quoteAmount = parseUnits((ethPerPool * pool.ethPrice).toString(), quote.decimals)
    await call(
      quote.address,
      encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [deployer.address, quoteAmount] }),
    )
    await call(
      quote.address,
      encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [positionManager, maxUint256] }),
    )
    // Pool tokens are ordered by address; the price is token1 per token0 in base units.
    const wethFirst = weth.toLowerCase() < quote.address.toLowerCase()
    const [token0, amount0, token1, amount1] = wethFirst
      ? [weth, eth, quote.address, quoteAmount]
      : [quote.address, quoteAmount, weth, eth]
    await call(
      positionManager,
      encodeFunctionData({
        abi: uniswapV3PositionManagerAbi,
        functionName: 'createAndInitializePoolIfNecessary',
        args: [token0, token1, pool.fee, sqrtPriceX96(amount0, amount1)],
      }),
    )
    const spacing = tickSpacing[pool.fee]!
    const tickUpper = Math.floor(maxTick / spacing) * spacing
    await call(
      positionManager,
      encodeFunctionData({
        abi: uniswapV3PositionManagerAbi,
        functionName: 'mint',
        args: [
          {
            token0,
            token1,
            fee: pool.fee,
            tickLower: -tickUpper,
            tickUpper,
            amount0Desired: amount0,
            amount1Desired: amount1,
            amount0Min: 0n,
            amount1Min: 0n,
            recipient: deployer.address,
            deadline: maxUint256,
          },
        ],
      }),
    )
  }
  return [{ name: 'uniswap-v3', factory, router, quoter, positionManager }]
}

/** √(amount1 / amount0) in Q64.96, the form a V3 pool is initialised with. */
export function sqrtPriceX96(amount0: bigint, amount1: bigint): bigint {
  return sqrt((amount1 << 192n) / amount0)
}

function sqrt(value: bigint): bigint {
  if (value < 2n) return value
  // Newton's method from an over-estimate converges down to ⌊√value⌋.
  let x = 1n << BigInt(Math.ceil(value.toString(2).length / 2))
  for (;;) {
    const next = (x + value / x) >> 1n
    if (next >= x) return x
    x = next
  }
}
