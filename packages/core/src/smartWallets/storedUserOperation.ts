import type { Address, Hex } from 'viem'
import type { SignedUserOperation } from '../bundler/types.js'
import type { StoredUserOperation } from '../transactions/types.js'

const bigintFields = [
  'nonce',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const

/**
 * A signed op as a record keeps it: numbers as decimal strings, beside its hash and EntryPoint.
 * @example record.userOperation = toStoredUserOperation(op, { hash, entryPoint })
 */
export function toStoredUserOperation(
  op: SignedUserOperation,
  { hash, entryPoint }: { hash: Hex; entryPoint: Address },
): StoredUserOperation {
  const stored: Record<string, string> = {}
  for (const [key, value] of Object.entries(op)) {
    if (value === undefined || key === 'authorization') continue
    stored[key] = typeof value === 'bigint' ? value.toString() : String(value)
  }
  return { hash, entryPoint, sender: op.sender, op: stored }
}

/** The signed op again, exactly as it was handed to the bundler. */
export function fromStoredUserOperation(stored: StoredUserOperation): SignedUserOperation {
  const op: Record<string, unknown> = { ...stored.op }
  for (const key of bigintFields) if (op[key] !== undefined) op[key] = BigInt(op[key] as string)
  return op as SignedUserOperation
}
