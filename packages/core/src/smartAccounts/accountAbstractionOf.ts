import type { AccountAbstractionContracts, ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'

/**
 * The chain's EntryPoint and Delegation Framework; `unsupported_protocol` on a chain whose address
 * book has none (smart wallets cannot live there).
 * @example const { entryPoint } = accountAbstractionOf(chain)
 */
export function accountAbstractionOf(chain: ChainHandle): AccountAbstractionContracts {
  const contracts = chain.contracts.accountAbstraction
  if (!contracts) {
    throw new BaseError(
      'unsupported_protocol',
      `Smart accounts are not in the address book of chain "${chain.name}"`,
      {
        details: { chain: chain.name },
      },
    )
  }
  return contracts
}
