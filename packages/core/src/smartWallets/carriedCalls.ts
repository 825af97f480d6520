import type { Address, Hex } from 'viem'
import type { TransactionRecord } from '../transactions/types.js'

/**
 * The calls a smart wallet's user operation carries for a record: its batch (`calls`), or its one
 * `call`, values as bigints.
 * @example const calls = carriedCalls(record) // [{ to, value: 0n, data }]
 */
export function carriedCalls(
  record: Pick<TransactionRecord, 'call' | 'calls'>,
): { to: Address; value: bigint; data?: Hex | undefined }[] {
  return (record.calls ?? [record.call]).map(({ to, value, data }) => ({ to, value: BigInt(value), data }))
}
