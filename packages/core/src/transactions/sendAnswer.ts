import type { AgentWalletContext } from '../context.js'
import { toApprovalSummary } from './approvalSummary.js'
import type { SubmitResult } from './submitIntent.js'
import { toTransactionView } from './toTransactionView.js'
import type { SendAnswer } from './transactionSchemas.js'
import type { TransactionRecord } from './types.js'

/**
 * The answer of a submitted (or paused) intent, with explorer links.
 * @example return toSendAnswer(ctx, await submitIntent(ctx, principal, wallet, draft))
 */
export function toSendAnswer(ctx: Pick<AgentWalletContext, 'chains'>, result: SubmitResult): SendAnswer {
  const transaction = viewOf(ctx, result.transaction)
  if (result.status === 'pending_approval')
    return { status: result.status, hash: null, approval: toApprovalSummary(result.approval), transaction }
  return { status: result.status, hash: transaction.hash, transaction }
}

/**
 * The public view of a stored transaction, with its chain's explorer link.
 * @example viewOf(ctx, record)
 */
export function viewOf(ctx: Pick<AgentWalletContext, 'chains'>, record: TransactionRecord) {
  const explorer = ctx.chains.list().find((info) => info.name === record.chain)?.explorerUrl
  return toTransactionView(record, explorer)
}
