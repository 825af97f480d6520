import type { Address, Hex } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import type { UserOperationGas } from '../bundler/types.js'

/** The paymaster part of a v0.8 user operation, as a verifying paymaster answers it (alto's `pm_*`). */
export type PaymasterFields = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
}

/**
 * A 65-byte ECDSA signature of the right shape for gas estimation (`r = s = 1`, `v = 27`): the
 * DeleGators' recovery fails on it without reverting, so validation runs to its end.
 */
export const dummySignature: Hex = `0x${'00'.repeat(31)}01${'00'.repeat(31)}011b`

/**
 * An unsigned ERC-4337 v0.8 user operation (signature: {@link dummySignature}). Gas is paid from the
 * sender's EntryPoint deposit (or its ETH) unless `paymaster` sponsors it. `factory`/`factoryData`
 * deploy the sender first (a smart wallet's first operation: `smartWalletDeployment`).
 * @example buildUserOperation({ sender, nonce, callData: redeemCalldata(delegations, calls), gas, fees })
 */
export function buildUserOperation({
  sender,
  nonce,
  callData,
  gas,
  fees,
  deployment,
  paymaster,
}: {
  sender: Address
  nonce: bigint
  callData: Hex
  gas: UserOperationGas
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  deployment?: { factory: Address; factoryData: Hex } | undefined
  paymaster?: PaymasterFields | undefined
}): UserOperation<'0.8'> {
  return {
    sender,
    nonce,
    callData,
    callGasLimit: gas.callGasLimit,
    verificationGasLimit: gas.verificationGasLimit,
    preVerificationGas: gas.preVerificationGas,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    ...(deployment ? { factory: deployment.factory, factoryData: deployment.factoryData } : {}),
    ...(paymaster ?? {}),
    signature: dummySignature,
  }
}
