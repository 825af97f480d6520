import { type Address, decodeErrorResult, type Hex, parseEventLogs, type TransactionReceipt } from 'viem'
import { entryPoint08Abi, type UserOperationReceipt } from 'viem/account-abstraction'

/**
 * The op's receipt read from the `handleOps` transaction's receipt: its `UserOperationEvent` (success,
 * gas, paymaster), the revert reason when its call reverted, and the logs its execution emitted (those
 * before its event, after the previous op's). Undefined when the transaction did not include it.
 * @example const receipt = userOperationReceiptOf(txReceipt, userOpHash, entryPoint)
 */
export function userOperationReceiptOf(
  receipt: TransactionReceipt,
  hash: Hex,
  entryPoint: Address,
): UserOperationReceipt<'0.8'> | undefined {
  const own = receipt.logs.filter((log) => log.address.toLowerCase() === entryPoint.toLowerCase())
  const events = parseEventLogs({ abi: entryPoint08Abi, logs: own, eventName: 'UserOperationEvent' })
  const index = events.findIndex((event) => event.args.userOpHash.toLowerCase() === hash.toLowerCase())
  const event = events[index]
  if (!event) return undefined
  const after = index > 0 ? (events[index - 1]?.logIndex ?? -1) : -1
  const logs = receipt.logs.filter((log) => log.logIndex > after && log.logIndex < event.logIndex)
  const reverts = parseEventLogs({ abi: entryPoint08Abi, logs: own, eventName: 'UserOperationRevertReason' })
  const revert = reverts.find((log) => log.args.userOpHash.toLowerCase() === hash.toLowerCase())
  const { paymaster } = event.args
  return {
    userOpHash: event.args.userOpHash,
    entryPoint,
    sender: event.args.sender,
    nonce: event.args.nonce,
    success: event.args.success,
    actualGasCost: event.args.actualGasCost,
    actualGasUsed: event.args.actualGasUsed,
    paymaster: /^0x0{40}$/.test(paymaster) ? undefined : paymaster,
    reason: revert ? reasonOf(revert.args.revertReason) : undefined,
    logs,
    receipt,
  }
}

/** An `Error(string)` revert's text, a custom error's name, else its raw bytes. */
function reasonOf(data: Hex): string {
  try {
    const decoded = decodeErrorResult({ abi: [], data })
    return decoded.errorName === 'Error' ? String(decoded.args[0]) : decoded.errorName
  } catch {
    return data
  }
}
