import type { Address } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'

/** The chain's ERC-8004 Identity Registry, or `unsupported_protocol` when its address book has none. */
export function identityRegistryOf(chain: ChainHandle): Address {
  const registry = chain.contracts.erc8004?.identityRegistry
  if (!registry) {
    throw new BaseError(
      'unsupported_protocol',
      `Chain "${chain.name}" has no ERC-8004 Identity Registry configured`,
      {
        details: { chain: chain.name, protocol: 'erc8004' },
      },
    )
  }
  return registry
}
