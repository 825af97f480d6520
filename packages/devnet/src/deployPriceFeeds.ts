import type { Address } from 'viem'
import type { Deployer } from './createDeployer.js'
import { loadArtifact } from './loadArtifact.js'

/** Initial answers, 8 decimals like Chainlink's USD feeds. ETH/USD also prices ENS rent. */
export const devnetPrices = {
  'ETH/USD': 3000_00000000n,
  'USDC/USD': 1_00000000n,
  'DAI/USD': 1_00000000n,
} as const

/** Deploys one AggregatorV3-style feed per pair in {@link devnetPrices}. */
export async function deployPriceFeeds(
  deployer: Deployer,
): Promise<Record<keyof typeof devnetPrices, Address>> {
  const feed = loadArtifact('devnet-contracts', 'PriceFeed')
  const feeds: Partial<Record<keyof typeof devnetPrices, Address>> = {}
  for (const [pair, answer] of Object.entries(devnetPrices) as [keyof typeof devnetPrices, bigint][]) {
    feeds[pair] = await deployer.deploy(feed, [8, pair, answer])
  }
  return feeds as Record<keyof typeof devnetPrices, Address>
}
