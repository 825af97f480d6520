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
 * A 65-byte signature of the right shape for gas estimation: a valid low-s ECDSA signature (of
 * keccak256("agentwallet dummy signature") by the private key 1), which over any other hash recovers to
 * an address no one uses. The DeleGators' `ECDSA.recover` reverts on a malformed signature (AA23); on
 * this one validation runs to its end and fails as a signature error (AA24), as bundlers expect of a stub.
 */
export const dummySignature: Hex =
  '0x1ee86508e050bc7b449156a0c2c80d27374604165b2d714fed2dc3aeb63d5c4f11e6f5de51ff5243e87fa4b940486ffe736f73583578762c1bfd10d04578b6f31c'

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
