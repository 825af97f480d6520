import type { TokenInfo } from '@agentwallet/core'
import type { Deployer } from './createDeployer.js'
import { loadArtifact } from './loadArtifact.js'

/** The devnet's test ERC-20s: one with 6 decimals like USDC, one with 18 like DAI. */
export const devnetTokens = [
  { symbol: 'USDC', name: 'USD Coin (devnet)', decimals: 6 },
  { symbol: 'DAI', name: 'Dai Stablecoin (devnet)', decimals: 18 },
] as const

/** Deploys WETH9 (the Uniswap periphery build) and the test tokens. */
export async function deployTokens(deployer: Deployer) {
  const tokens: TokenInfo[] = []
  for (const { symbol, name, decimals } of devnetTokens) {
    const address = await deployer.deploy(loadArtifact('devnet-contracts', 'TestToken'), [
      name,
      symbol,
      decimals,
    ])
    tokens.push({ address, symbol, name, decimals })
  }
  const weth = await deployer.deploy(loadArtifact('uniswap-v2-periphery', 'WETH9'))
  return { weth, tokens }
}
