import type { Address, Hex } from 'viem'

/**
 * A user operation the relayer took (`user_operations`): its hash and the relayer's `handleOps`
 * transaction that carries it. Saved in the same commit as that signed transaction, so a restart
 * finds the op's carrier and never submits the same op twice.
 */
export type UserOperationRecord = {
  /** `${chainId}:${userOpHash}` (`userOperationRecordId`). */
  id: string
  tenantId: string
  chain: string
  hash: Hex
  entryPoint: Address
  sender: Address
  /** The op's nonce, a decimal string. */
  nonce: string
  /** The relayer's transaction record that submits `handleOps([op])`. */
  transactionId: string
  createdAt: string
}

/** The id of an op's record: one per chain and userOpHash. */
export function userOperationRecordId(chainId: number, hash: Hex): string {
  return `${chainId}:${hash.toLowerCase()}`
}
