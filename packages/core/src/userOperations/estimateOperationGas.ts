import { type Address, hexToBytes, zeroAddress } from 'viem'
import type { SignedUserOperation, UserOperationGas } from '../bundler/types.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { handleOpsData } from './simulateHandleOps.js'

/** What validating an ECDSA-signed account (and deploying it from a factory, the first time) may take. */
const verificationGas = 300_000n
const deploymentGas = 500_000n
/** A verifying paymaster's check and its (absent) postOp. */
const paymasterVerificationGas = 100_000n
const paymasterPostOpGas = 50_000n

/**
 * Gas limits for an op the relayer will carry. `callGasLimit` is the node's estimate of the account's
 * call as the EntryPoint makes it (+20%); verification is a fixed allowance for an ECDSA account
 * (+ a factory's deployment); `preVerificationGas` is what the relayer pays outside the EntryPoint's
 * metering: the transaction's 21000 and its calldata (+10%). A bundler with its own simulation
 * (`jsonRpcBundler`) estimates tighter; the relayer is refunded only what the op used.
 * @example const gas = await estimateOperationGas(chain, op, entryPoint)
 */
export async function estimateOperationGas(
  chain: ChainHandle,
  op: SignedUserOperation,
  entryPoint: Address,
): Promise<UserOperationGas> {
  const deploys = op.factory !== undefined && op.factory !== zeroAddress
  let call: bigint
  try {
    call = deploys
      ? deploymentGas
      : await chain.client.estimateGas({ account: entryPoint, to: op.sender, data: op.callData })
  } catch (error) {
    throw toChainError(error, chain.name)
  }
  const sponsored = op.paymaster !== undefined && op.paymaster !== zeroAddress
  return {
    preVerificationGas: ((21_000n + calldataGas(op)) * 11n) / 10n,
    verificationGasLimit: verificationGas + (deploys ? deploymentGas : 0n),
    callGasLimit: (call * 12n) / 10n,
    ...(sponsored
      ? {
          paymasterVerificationGasLimit: paymasterVerificationGas,
          paymasterPostOpGasLimit: paymasterPostOpGas,
        }
      : {}),
  }
}

/** EIP-2028 calldata gas of the relayer's `handleOps([op])`: 16 a non-zero byte, 4 a zero one. */
function calldataGas(op: SignedUserOperation): bigint {
  let gas = 0n
  for (const byte of hexToBytes(handleOpsData(op, zeroAddress))) gas += byte === 0 ? 4n : 16n
  return gas
}
