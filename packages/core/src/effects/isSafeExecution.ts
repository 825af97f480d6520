import type { Hex } from 'viem'

/** `execTransaction(address,uint256,bytes,uint8,uint256,uint256,uint256,address,address,bytes)` of a Safe. */
const execTransactionSelector = '0x6a761202'

/**
 * Whether `data` calls a Safe's `execTransaction`: such a call spends the Safe's assets as well as
 * the sender's, so its effects are read for both.
 * @example if (isSafeExecution(call.data)) holders.push(call.to)
 */
export function isSafeExecution(data: Hex | undefined): boolean {
  return data?.slice(0, 10).toLowerCase() === execTransactionSelector
}
