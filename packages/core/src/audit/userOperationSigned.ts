import type { Address, Hex } from 'viem'

/** What a `vault.signature` entry says of an ERC-4337 user operation the vault signed. */
export type UserOperationSigned = {
  signed: 'user_operation'
  /** The op's hash at the EntryPoint (what the account's signature covers, with the chain). */
  userOpHash: Hex
  entryPoint: Address
  sender: Address
  chainId: number
}

/**
 * The audit payload of a signed user operation: its hash, EntryPoint, sender and chain.
 * @example appendAudit(ctx, tx, tenantId, { kind: 'vault.signature', subjects, payload: userOperationSigned(stored, chainId) })
 */
export function userOperationSigned(
  op: { hash: Hex; entryPoint: Address; sender: Address },
  chainId: number,
): UserOperationSigned {
  return {
    signed: 'user_operation',
    userOpHash: op.hash,
    entryPoint: op.entryPoint,
    sender: op.sender,
    chainId,
  }
}
