import type { Hex } from 'viem'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { type ConfirmedTransaction, finalStatuses, type TransactionRecord } from '../transactions/types.js'
import { sleep } from './backgroundOperations.js'

// Shared by the multi-step operations that outlive a request: ENS and identity registrations, swaps.

const pollMs = 250

/**
 * Polls the stored transaction until it is final (confirmed, failed, rejected, expired, blocked);
 * undefined on abort.
 * @example const done = await waitFinal(ctx, record.transactions.swap, signal)
 */
export async function waitFinal(
  ctx: AgentWalletContext,
  transactionId: string,
  signal: AbortSignal,
): Promise<TransactionRecord | undefined> {
  while (!signal.aborted) {
    const transaction = await ctx.storage.get('transactions', transactionId)
    if (transaction && finalStatuses.includes(transaction.status)) return transaction
    await sleep(Math.min(pollMs, ctx.options.trackerIntervalMs * 2), signal)
  }
  return undefined
}

/** A step's transaction confirmed on chain, with the hash of the transaction that carried it. */
export type IncludedTransaction = ConfirmedTransaction & { hash: Hex }

/**
 * Whether a step's transaction confirmed on chain: an EOA's mined tx, or a smart wallet's user
 * operation (confirmed with its carrier's `hash`, but no block fields of its own — the wallet sent no
 * transaction). Read the block from the receipt of `hash` when it matters.
 * @example if (!isIncluded(done)) throw stepFailed('identity', step, done)
 */
export function isIncluded(record: TransactionRecord): record is IncludedTransaction {
  return record.status === 'confirmed' && record.hash !== undefined
}

/**
 * The error of a step whose transaction ended other than `confirmed`; a blocked, rejected or
 * expired step says why: the policy, the approver, or the approval's deadline; one approved after
 * its wallet's money left is `insufficient_funds`.
 * @example throw stepFailed('identity', 'setAgentURI', done)
 */
export function stepFailed(operation: string, step: string, transaction: TransactionRecord): BaseError {
  const code =
    transaction.status === 'blocked'
      ? 'policy_blocked'
      : transaction.status === 'expired'
        ? 'approval_expired'
        : transaction.error?.code === 'insufficient_funds'
          ? 'insufficient_funds'
          : 'transaction_failed'
  const why =
    transaction.status === 'rejected'
      ? 'the approver rejected it'
      : transaction.status === 'expired'
        ? 'its approval expired'
        : `it ended ${transaction.status}`
  return new BaseError(code, `The ${operation} ${step} transaction did not confirm: ${why}`, {
    details: { step, transactionId: transaction.id, hash: transaction.hash, status: transaction.status },
  })
}
