import type { Address } from 'viem'
import { toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import type { VaultSigner } from '../vault/types.js'

/** Which DeleGator validates the op: its EIP-712 domain name. */
export type DeleGatorKind = 'HybridDeleGator' | 'EIP7702StatelessDeleGator'

const packedUserOperationTypes = {
  PackedUserOperation: [
    { name: 'sender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'initCode', type: 'bytes' },
    { name: 'callData', type: 'bytes' },
    { name: 'accountGasLimits', type: 'bytes32' },
    { name: 'preVerificationGas', type: 'uint256' },
    { name: 'gasFees', type: 'bytes32' },
    { name: 'paymasterAndData', type: 'bytes' },
    { name: 'entryPoint', type: 'address' },
  ],
} as const

/**
 * `op` signed by `signer` as its sender's DeleGator checks it: EIP-712 over the packed op and the
 * EntryPoint, under the sender's own domain (`kind`, version 1) — not the EntryPoint's userOpHash,
 * which the DeleGators ignore. The session account (an EIP-7702 EOA) signs with the session key; a
 * HybridDeleGator wallet with its owner key. Sign after the paymaster fields are set: they are covered.
 * @example const signed = await signUserOperation(sessionKey, op, { chainId, entryPoint, kind: 'EIP7702StatelessDeleGator' })
 */
export async function signUserOperation(
  signer: VaultSigner,
  op: UserOperation<'0.8'>,
  { chainId, entryPoint, kind }: { chainId: number; entryPoint: Address; kind: DeleGatorKind },
): Promise<UserOperation<'0.8'>> {
  const packed = toPackedUserOperation(op)
  const signature = await signer.signTypedData({
    domain: { name: kind, version: '1', chainId, verifyingContract: op.sender },
    types: packedUserOperationTypes,
    primaryType: 'PackedUserOperation',
    message: { ...packed, entryPoint },
  })
  return { ...op, signature }
}
