import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import type { SubmitResult } from './submitIntent.js'
import { type IncludedTransaction, isIncluded } from './types.js'
import { waitForFinalStatus } from './waitForTransaction.js'

/**
 * Waits for a submitted intent to be included on chain (mined, or a smart wallet's op confirmed); any final status but `confirmed` is `transaction_failed`
 * (for actions that read the receipt next: swap, stake, Safe deployment).
 * @example const mined = await awaitConfirmed(ctx, submitted, 'stake')
 */
export async function awaitConfirmed(
  ctx: AgentWalletContext,
  submitted: SubmitResult,
  step: string,
): Promise<IncludedTransaction> {
  const done = await waitForFinalStatus(ctx, submitted.transaction.id)
  if (isIncluded(done)) return done
  throw new BaseError('transaction_failed', `The ${step} transaction did not succeed on chain`, {
    details: { step, transactionId: done.id, hash: done.hash, status: done.status, error: done.error },
  })
}
