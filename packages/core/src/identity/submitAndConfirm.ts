import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { NotImplementedError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { type IntentDraft, submitIntent } from '../transactions/submitIntent.js'
import type { TransactionRecord } from '../transactions/types.js'
import { waitForTransaction } from '../transactions/waitForTransaction.js'
import type { WalletRecord } from '../wallets/types.js'

/**
 * One step of a synchronous multi-transaction action: the money path, then the receipt.
 * A step the policy pauses for a human is refused (this action cannot wait hours in a request);
 * the paused intent stays for the approver. A reverted step is `transaction_failed`.
 */
export async function submitAndConfirm(
  ctx: AgentWalletContext,
  principal: Principal,
  wallet: WalletRecord,
  draft: IntentDraft,
  step: string,
): Promise<TransactionRecord> {
  const result = await submitIntent(ctx, principal, wallet, draft)
  if (result.status === 'pending_approval') {
    throw new NotImplementedError(`Waiting for a human approval during ${step}`, {
      details: { step, transactionId: result.transaction.id, approvalId: result.approval.id },
    })
  }
  const done = await waitForTransaction(ctx, result.transaction.id, { timeoutMs: 120_000 })
  if (done.status !== 'confirmed') {
    throw new BaseError('transaction_failed', `The ${step} transaction did not confirm`, {
      details: { step, transactionId: done.id, hash: done.hash, status: done.status, error: done.error },
    })
  }
  return done
}
