import type { ChainInfo } from './types.js'

/** Chain ids of local development chains (our devnet, anvil and hardhat use 31337; ganache 1337). */
export const devChainIds: readonly number[] = [31337, 1337]

/**
 * Whether the faucet funds addresses on `chain`: as the operator marked it (`devChain`), else by its
 * chain id (31337, 1337).
 * @example if (!isDevChain(chain)) throw new BaseError('unsupported_chain', …)
 */
export function isDevChain(chain: Pick<ChainInfo, 'chainId' | 'devChain'>): boolean {
  return chain.devChain ?? devChainIds.includes(chain.chainId)
}
