import type { AgentWalletContext } from '../context.js'
import { ValidationError } from '../errors/errors.js'
import { maxOf } from '../utils/amounts.js'
import { feeCapOf } from './replaceStuck.js'
import type { SubmittedTransaction } from './types.js'

/** Fees of a new signature, wei per gas. */
export type ReplacementFees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

/** A fee raised 10%, rounded up: the least a node takes to replace a pending tx at its nonce. */
const raised = (fee: bigint) => (fee * 110n + 99n) / 100n

/**
 * The fees a speed-up or cancel signs with: each at least 10% above the current signature's and at
 * least what the chain asks now (`market`). Without `requested` the max fee stays within the
 * tracker's cap (`feeCapOf`); a `requested` max fee is the caller's own cap, and must reach the 10%.
 * @example const { maxFeePerGas } = replacementFees(ctx, record, await client.estimateFeesPerGas())
 */
export function replacementFees(
  ctx: AgentWalletContext,
  record: SubmittedTransaction,
  market: ReplacementFees,
  requested?: string | undefined,
): ReplacementFees {
  const least = raised(BigInt(record.gas.maxFeePerGas))
  const tip = maxOf(raised(BigInt(record.gas.maxPriorityFeePerGas)), market.maxPriorityFeePerGas)
  if (requested !== undefined) {
    const maxFeePerGas = BigInt(requested)
    if (maxFeePerGas < least)
      throw new ValidationError(
        `maxFeePerGas must be at least ${least} wei per gas (10% above the current signature) to replace it`,
        { details: { field: 'maxFeePerGas', minimum: least.toString() } },
      )
    // The tip never passes the max fee; the 10% on the tip holds, since the old tip ≤ the old max fee.
    return { maxFeePerGas, maxPriorityFeePerGas: tip < maxFeePerGas ? tip : maxFeePerGas }
  }
  const maxFeePerGas = maxOf(least, market.maxFeePerGas, tip)
  const cap = feeCapOf(ctx, record)
  if (maxFeePerGas > cap)
    throw new ValidationError(
      `The new signature needs ${maxFeePerGas} wei per gas, past the cap of ${cap} (maxFeeBumpMultiplier × its first max fee): pass maxFeePerGas to pay more`,
      {
        details: {
          field: 'maxFeePerGas',
          neededMaxFeePerGas: maxFeePerGas.toString(),
          capMaxFeePerGas: cap.toString(),
        },
      },
    )
  return { maxFeePerGas, maxPriorityFeePerGas: tip }
}
