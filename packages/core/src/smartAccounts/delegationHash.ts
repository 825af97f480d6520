import { type Hex, hashStruct } from 'viem'
import { type Delegation, delegationTypes } from './delegation.js'

/**
 * The delegation's EIP-712 struct hash: its id on chain (`disabledDelegations(hash)`, the enforcers'
 * per-delegation state such as a periodic allowance's spent amount).
 */
export function delegationHash(delegation: Delegation): Hex {
  return hashStruct({
    types: delegationTypes,
    primaryType: 'Delegation',
    data: { ...delegation, caveats: delegation.caveats.map(({ enforcer, terms }) => ({ enforcer, terms })) },
  })
}
