import type { Address, Hex } from 'viem'

/** One condition of a delegation: the enforcer contract and its terms (`args` are the redeemer's, unsigned). */
export type Caveat = { enforcer: Address; terms: Hex; args: Hex }

/**
 * A Delegation Framework delegation: `delegator` (the wallet) lets `delegate` (the session account)
 * make it execute calls, under `caveats`. `authority` is the root authority for a delegation straight
 * from the wallet. `signature` is empty until the wallet's owner signs it.
 */
export type Delegation = {
  delegate: Address
  delegator: Address
  authority: Hex
  caveats: readonly Caveat[]
  salt: bigint
  signature: Hex
}

/** `authority` of a delegation that no other delegation stands above. */
export const rootAuthority: Hex = '0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff'

/** EIP-712 types of a delegation (the signature and the caveats' `args` are not signed). */
export const delegationTypes = {
  Delegation: [
    { name: 'delegate', type: 'address' },
    { name: 'delegator', type: 'address' },
    { name: 'authority', type: 'bytes32' },
    { name: 'caveats', type: 'Caveat[]' },
    { name: 'salt', type: 'uint256' },
  ],
  Caveat: [
    { name: 'enforcer', type: 'address' },
    { name: 'terms', type: 'bytes' },
  ],
} as const
