import { type Address, getAddress, type Hex, slice, toFunctionSelector } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'

/**
 * EIP-3009's `bytes signature` overload, which FiatToken v2.2 added together with ERC-1271 support
 * (its `SignatureChecker` asks a contract signer's `isValidSignature`); older tokens take `(v, r, s)`
 * only and check it with `ecrecover`, which no contract wallet can pass.
 */
const bytesSignatureSelector = toFunctionSelector(
  'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)',
)
/** Where a proxy keeps its implementation: EIP-1967's slot, and the one Circle's FiatTokenProxy uses. */
const implementationSlots: Hex[] = [
  '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3',
]

/**
 * Whether `token` takes an EIP-3009 authorization signed by a contract wallet (ERC-1271): its code —
 * or its implementation's, behind an EIP-1967 or FiatTokenProxy proxy — dispatches the `bytes
 * signature` overload of `transferWithAuthorization`. Read from the bytecode, before anything is signed.
 * @example if (!(await acceptsContractSignatures(chain, usdc))) throw …
 */
export async function acceptsContractSignatures(chain: ChainHandle, token: Address): Promise<boolean> {
  try {
    if (dispatches(await chain.client.getCode({ address: token }))) return true
    for (const slot of implementationSlots) {
      const stored = await chain.client.getStorageAt({ address: token, slot })
      const implementation = stored ? getAddress(slice(stored, 12)) : undefined
      if (implementation && BigInt(implementation) !== 0n)
        return dispatches(await chain.client.getCode({ address: implementation }))
    }
    return false
  } catch (error) {
    throw toChainError(error, chain.name, { read: true })
  }
}

/** Solidity's dispatcher compares the call's selector with each PUSH4 (0x63) of a public function's. */
function dispatches(code: Hex | undefined): boolean {
  return (code ?? '0x').toLowerCase().includes(`63${bytesSignatureSelector.slice(2)}`)
}
