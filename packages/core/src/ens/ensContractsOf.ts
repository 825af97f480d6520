import type { Address } from 'viem'
import type { AddressBook, ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'

type EnsBook = NonNullable<AddressBook['ens']>

/** The chain's ENS address book entry, or `unsupported_protocol`. */
export function ensContractsOf(chain: ChainHandle): EnsBook {
  const ens = chain.contracts.ens
  if (!ens) throw unsupported(chain, 'ENS registry')
  return ens
}

/** One required ENS contract of the chain (controller, resolver, reverse registrar). */
export function requireEnsContract(
  chain: ChainHandle,
  key: 'controller' | 'publicResolver' | 'reverseRegistrar' | 'baseRegistrar',
): Address {
  const address = ensContractsOf(chain)[key]
  if (!address) throw unsupported(chain, `ENS ${key}`)
  return address
}

function unsupported(chain: ChainHandle, what: string): BaseError {
  return new BaseError('unsupported_protocol', `Chain "${chain.name}" has no ${what} configured`, {
    details: { chain: chain.name, protocol: 'ens', missing: what },
  })
}
