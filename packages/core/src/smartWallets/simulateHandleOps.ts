import {
  type Address,
  ContractFunctionRevertedError,
  encodeFunctionData,
  type Hex,
  BaseError as ViemBaseError,
} from 'viem'
import { entryPoint08Abi, toPackedUserOperation } from 'viem/account-abstraction'
import type { SignedUserOperation } from '../bundler/types.js'
import { isRevert, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'

/**
 * The EntryPoint's `handleOps([op], beneficiary)` calldata: what the relayer's transaction carries.
 * @example const data = handleOpsData(op, relayer.address)
 */
export function handleOpsData(op: SignedUserOperation, beneficiary: Address): Hex {
  return encodeFunctionData({
    abi: entryPoint08Abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation(op)], beneficiary],
  })
}

/**
 * Runs `handleOps([op])` as an `eth_call` from the relayer: the EntryPoint's own validation (the
 * account's signature and nonce, its prefund or the paymaster's). A `FailedOp` is
 * `user_operation_rejected` (422) with the EntryPoint's reason (`AA25 invalid account nonce`, …) in
 * `details`; a node that cannot be asked is `chain_unavailable`. An op whose call itself reverts passes:
 * the EntryPoint includes it, and its receipt says `success: false`.
 * @example await simulateHandleOps(chain, relayer.address, op, entryPoint)
 */
export async function simulateHandleOps(
  chain: ChainHandle,
  relayer: Address,
  op: SignedUserOperation,
  entryPoint: Address,
): Promise<void> {
  try {
    await chain.client.simulateContract({
      account: relayer,
      address: entryPoint,
      abi: entryPoint08Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(op)], relayer],
    })
  } catch (error) {
    if (!isRevert(error)) throw toChainError(error, chain.name, { read: true })
    throw rejected(error, chain.name, op)
  }
}

function rejected(error: unknown, chain: string, op: SignedUserOperation): BaseError {
  const details: Record<string, unknown> = { chain, sender: op.sender, nonce: op.nonce.toString() }
  const reverted =
    error instanceof ViemBaseError
      ? error.walk((cause) => cause instanceof ContractFunctionRevertedError)
      : undefined
  const data = reverted instanceof ContractFunctionRevertedError ? reverted.data : undefined
  if (data?.errorName === 'FailedOp' || data?.errorName === 'FailedOpWithRevert') {
    details.reason = data.args?.[1]
    if (data.errorName === 'FailedOpWithRevert') details.inner = data.args?.[2]
  } else if (data) details.reason = data.errorName
  return new BaseError('user_operation_rejected', 'The EntryPoint refused the user operation', {
    details,
    cause: error,
  })
}
