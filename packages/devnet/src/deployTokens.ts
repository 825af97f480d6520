import type { TokenInfo } from '@agentwallet/core'
import type { Deployer } from './createDeployer.js'
import { loadArtifact } from './loadArtifact.js'

/**
 * The devnet's test ERC-20s: one with 6 decimals like USDC, one with 18 like DAI. USDC is a
 * `FiatToken` like Circle's v2: EIP-3009 transfers by authorization (x402 pays with them) under the
 * EIP-712 domain (its name, version "2").
 */
export const devnetTokens = [
  { symbol: 'USDC', name: 'USD Coin (devnet)', decimals: 6, contract: 'FiatToken' },
  { symbol: 'DAI', name: 'Dai Stablecoin (devnet)', decimals: 18, contract: 'TestToken' },
] as const

/** Deploys WETH9 (the Uniswap periphery build) and the test tokens. */
export async function deployTokens(deployer: Deployer) {
  const tokens: TokenInfo[] = []
  for (const { symbol, name, decimals, contract } of devnetTokens) {
    const address = await deployer.deploy(loadArtifact('devnet-contracts', contract), [
      name,
      symbol,
      decimals,
    ])
    tokens.push({ address, symbol, name, decimals })
  }
  const weth = await deployer.deploy(loadArtifact('uniswap-v2-periphery', 'WETH9'))
  return { weth, tokens }
}
