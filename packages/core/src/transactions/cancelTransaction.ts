import type { AgentWalletContext } from '../context.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import type { Principal } from '../principals/types.js'
import type { ReplacementAnswer, ReplacementInput } from './replacementSchema.js'
import { replaceSubmitted } from './replaceSubmitted.js'

/**
 * Cancels a submitted tx: a zero-value transfer to the wallet itself at its nonce, with fees at
 * least 10% higher (policy: a transfer of 0 to itself). If the cancel is mined the intent ends
 * `failed` with `cancelled` and its call never runs; if the original wins the race, it stands.
 * @example const { transaction } = await cancelTransaction(ctx, agent, { transaction: 'tx_…' })
 */
export function cancelTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  input: ReplacementInput,
  options: IdempotencyOptions = {},
): Promise<ReplacementAnswer> {
  return withIdempotency(ctx, principal, 'transaction.cancel', input, options, () =>
    replaceSubmitted(ctx, principal, input, 'cancel'),
  )
}
