import type { AgentWalletContext } from '../context.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import type { Principal } from '../principals/types.js'
import type { ReplacementAnswer, ReplacementInput } from './replacementSchema.js'
import { replaceSubmitted } from './replaceSubmitted.js'

/**
 * Speeds up a submitted tx: the same nonce and call signed again with fees at least 10% higher (or
 * what the chain asks now), within the fee-bump cap unless `maxFeePerGas` says more. Judged by the
 * policy as its intent again. Whichever signature is mined wins.
 * @example const { transaction } = await speedUpTransaction(ctx, agent, { transaction: 'tx_…' })
 */
export function speedUpTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  input: ReplacementInput,
  options: IdempotencyOptions = {},
): Promise<ReplacementAnswer> {
  return withIdempotency(ctx, principal, 'transaction.speedUp', input, options, () =>
    replaceSubmitted(ctx, principal, input, 'speed_up'),
  )
}
