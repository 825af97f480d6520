import { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { approvalSummarySchema, toApprovalSummary } from './approvalSummary.js'
import type { SubmitResult } from './submitIntent.js'
import { toTransactionView, transactionStatuses, transactionViewSchema } from './toTransactionView.js'
import type { TransactionRecord } from './types.js'

/**
 * What a send answers: the transaction, and, when a rule paused it, the approval it waits for
 * (HTTP 202). `hash` is null until a transaction is signed.
 */
export const sendAnswerSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('pending_approval'),
    hash: z.null(),
    approval: approvalSummarySchema,
    transaction: transactionViewSchema,
  }),
  z.object({
    status: z.enum(transactionStatuses).exclude(['pending_approval']),
    hash: transactionViewSchema.shape.hash,
    transaction: transactionViewSchema,
  }),
])
export type SendAnswer = z.infer<typeof sendAnswerSchema>

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
