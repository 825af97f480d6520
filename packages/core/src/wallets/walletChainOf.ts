import { chainInfoOf } from '../chain/chainInfoOf.js'
import type { ChainInfo, ChainProvider } from '../chain/types.js'
import { UnsupportedChainFamilyError } from '../errors/errors.js'
import type { ChainFamily } from '../vault/types.js'
import type { WalletRecord } from './types.js'

/**
 * The chain a wallet acts or is read on (`chain`, default its own), which must be of the wallet's
 * family: a Solana wallet on an EVM chain is `unsupported_chain_family`.
 * @example const { family } = walletChainOf(ctx.chains, wallet, query.chain)
 */
export function walletChainOf(
  chains: ChainProvider,
  wallet: Pick<WalletRecord, 'chain' | 'address'>,
  chain: string | undefined,
): ChainInfo & { family: ChainFamily } {
  const own = chainInfoOf(chains, wallet.chain)
  if (chain === undefined || chain === wallet.chain) return own
  const asked = chainInfoOf(chains, chain)
  if (asked.family !== own.family) {
    throw new UnsupportedChainFamilyError(
      `A ${own.family} wallet has no account on ${asked.family} chain "${chain}"`,
      {
        details: { wallet: wallet.address, chain, family: asked.family, families: [own.family] },
      },
    )
  }
  return asked
}
