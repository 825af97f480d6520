import type { Address } from 'viem'
import type { VaultSigner } from '../vault/types.js'
import { type Delegation, delegationTypes } from './delegation.js'

/**
 * `delegation` signed by the wallet's owner key: EIP-712 under the DelegationManager's domain, which
 * the DelegationManager checks through the wallet's ERC-1271 `isValidSignature` (a HybridDeleGator
 * recovers its owner; an EIP-7702 wallet recovers its own address).
 * @example const signed = await signDelegation(owner, delegation, { chainId, delegationManager })
 */
export async function signDelegation(
  owner: VaultSigner,
  delegation: Delegation,
  { chainId, delegationManager }: { chainId: number; delegationManager: Address },
): Promise<Delegation> {
  const signature = await owner.signTypedData({
    domain: { name: 'DelegationManager', version: '1', chainId, verifyingContract: delegationManager },
    types: delegationTypes,
    primaryType: 'Delegation',
    message: {
      ...delegation,
      caveats: delegation.caveats.map(({ enforcer, terms }) => ({ enforcer, terms })),
    },
  })
  return { ...delegation, signature }
}
