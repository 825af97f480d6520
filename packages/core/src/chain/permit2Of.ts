import type { Address } from 'viem'
import type { ChainHandle } from './types.js'

/** Where Uniswap deployed Permit2 on every chain it is on (CREATE2, the same address everywhere). */
export const canonicalPermit2: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'

/**
 * The chain's Permit2: its address book's, else the canonical deployment.
 * @example const permit2 = permit2Of(chain)
 */
export function permit2Of(chain: Pick<ChainHandle, 'contracts'>): Address {
  return chain.contracts.permit2 ?? canonicalPermit2
}
