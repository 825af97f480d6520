import type { ChainProvider, SolanaChainHandle } from '../chain/types.js'
import { UnsupportedChainFamilyError } from '../errors/errors.js'

/**
 * The Solana chain `name` from a provider: `unsupported_chain_family` when the provider serves no
 * Solana chains (one written before families) or `name` is of another family.
 * @example const chain = solanaChainOf(ctx.chains, wallet.chain)
 */
export function solanaChainOf(chains: ChainProvider, name: string): SolanaChainHandle {
  if (!chains.solana) {
    throw new UnsupportedChainFamilyError('This chain provider serves no Solana chains', {
      details: { chain: name, families: ['evm'] },
    })
  }
  return chains.solana(name)
}
