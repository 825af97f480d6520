import { type Address, hexToBytes, zeroAddress } from 'viem'
import type { SignedUserOperation, UserOperationGas } from '../bundler/types.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { callGasLimit } from '../transactions/prepareGas.js'
import { handleOpsData, simulateHandleOps } from './simulateHandleOps.js'

/** The allowance when the validation cannot be simulated: an ECDSA account (+ a factory's deployment). */
const verificationGas = 300_000n
const deploymentGas = 500_000n
/** The most a validation (with a deployment) is searched up to. */
const verificationCeiling = 3_000_000n
/** A verifying paymaster's check and its (absent) postOp. */
const paymasterVerificationGas = 100_000n
const paymasterPostOpGas = 50_000n
/** Who the simulated `handleOps` comes from (an address without code, as the EntryPoint asks). */
const simulator: Address = '0x000000000000000000000000000000000000dEaD'

/**
 * Gas limits for an op the relayer will carry. `callGasLimit` is the node's estimate of the account's
 * call as the EntryPoint makes it (+20%); `verificationGasLimit` the least with which the
 * EntryPoint's own validation of the op completes (`simulatedVerificationGas`, +20% and 10,000), a
 * factory's deployment included; `preVerificationGas` is what the relayer pays outside the
 * EntryPoint's metering: the transaction's 21000 and its calldata (+10%). The relayer is refunded
 * only what the op used.
 * @example const gas = await estimateUserOperationGas(chain, op, entryPoint)
 */
export async function estimateUserOperationGas(
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
  const limits = {
    preVerificationGas: ((21_000n + calldataGas(op)) * 11n) / 10n,
    callGasLimit: callGasLimit(call),
    ...(sponsored
      ? {
          paymasterVerificationGasLimit: paymasterVerificationGas,
          paymasterPostOpGasLimit: paymasterPostOpGas,
        }
      : {}),
  }
  // Validated with the op's other limits and fees: its prefund (paid in the validation) is what it will be.
  const verificationGasLimit = await verificationGasOf(chain, { ...op, ...limits }, entryPoint, deploys)
  return { ...limits, verificationGasLimit }
}

/** EIP-2028 calldata gas of the relayer's `handleOps([op])`: 16 a non-zero byte, 4 a zero one. */
function calldataGas(op: SignedUserOperation): bigint {
  let gas = 0n
  for (const byte of hexToBytes(handleOpsData(op, zeroAddress))) gas += byte === 0 ? 4n : 16n
  return gas
}

/** The simulated validation's gas with its margin, or the fixed allowance when it cannot complete. */
async function verificationGasOf(
  chain: ChainHandle,
  op: SignedUserOperation,
  entryPoint: Address,
  deploys: boolean,
): Promise<bigint> {
  const simulated = await simulatedVerificationGas(chain, op, entryPoint)
  if (simulated === undefined) return verificationGas + (deploys ? deploymentGas : 0n)
  return (simulated * 12n) / 10n + 10_000n
}

/**
 * The least `verificationGasLimit` (to 1%) with which `handleOps([op])`, run by `eth_call`, gets
 * through the account's validation — its deployment from the factory, `validateUserOp` — found by
 * bisection. The op carries a stub signature, so a validation that completes ends in the EntryPoint's
 * `AA24 signature error` (`AA34` for a paymaster's stub); one short of gas in `AA13` (factory),
 * `AA23` (the account ran out) or `AA26` (over the limit). The op's fees and other limits are kept:
 * an account without enough deposit pays its prefund inside the validation, and that is measured too.
 * Undefined when the validation fails at the ceiling for another reason (a wrong nonce, a prefund the
 * account cannot pay at that limit…): the op's submission then refuses it with that reason.
 * @example const least = await simulatedVerificationGas(chain, op, entryPoint)
 */
export async function simulatedVerificationGas(
  chain: ChainHandle,
  op: SignedUserOperation,
  entryPoint: Address,
): Promise<bigint | undefined> {
  const completes = (limit: bigint) =>
    validationCompletes(chain, { ...op, verificationGasLimit: limit }, entryPoint)
  const deploys = op.factory !== undefined && op.factory !== zeroAddress
  const sponsored = op.paymaster !== undefined && op.paymaster !== zeroAddress
  const shape = `${chain.chainId}:${op.sender.toLowerCase()}:${deploys}:${sponsored}`
  let low = 0n
  let high = deploys ? verificationGas + deploymentGas : verificationGas
  // The last least found for an op of this shape, checked again on the chain as it is now: when it
  // still completes and 10% less does not, it is the least (two calls, not a search).
  const last = leastFound.get(shape)
  if (last !== undefined && (await completes(last))) {
    const below = (last * 9n) / 10n
    if (!(await completes(below))) return last
    high = below
  } else if (!(await completes(high))) {
    low = high
    high = verificationCeiling
    if (!(await completes(high))) return undefined
  }
  while (high - low > high / 100n + 1n) {
    const middle = (low + high) / 2n
    if (await completes(middle)) high = middle
    else low = middle
  }
  if (leastFound.size >= 10_000) leastFound.clear()
  leastFound.set(shape, high)
  return high
}

/**
 * The least verification gas last found per op shape (chain, sender, deployment, paymaster): an
 * account's validation costs the same from op to op, so the next search starts there. Only a hint:
 * it is checked on the chain each time, so a stale one costs calls, never a wrong limit.
 */
const leastFound = new Map<string, bigint>()

/** Whether the EntryPoint's validation of the (stub-signed) op runs to its end with the op's limits. */
async function validationCompletes(
  chain: ChainHandle,
  op: SignedUserOperation,
  entryPoint: Address,
): Promise<boolean> {
  try {
    await simulateHandleOps(chain, simulator, op, entryPoint)
    return true
  } catch (error) {
    if (!isAgentWalletError(error) || error.code !== 'user_operation_rejected') throw error
    const reason = error.details?.reason
    return typeof reason === 'string' && /^AA(24|34|90) /.test(reason)
  }
}
