import {
  type ApprovalRecord,
  type TransactionRecord,
  type TransactionView,
  toTransactionView,
} from '@agentwallet/core'
import type { PendingApproval } from './agentWalletBackend.js'
import { type ApprovalInstructionsOptions, approvalInstructions } from './approvalInstructions.js'

/** The fields of an action result that differ between core (records) and the HTTP API (views). */
type RecordFields = {
  transaction?: TransactionRecord | undefined
  allowanceTransaction?: TransactionRecord | undefined
  approval?: ApprovalRecord | undefined
}

/**
 * A value-moving action's result as a tool answers it: transactions as public views (never signed
 * bytes), the hash, and a paused step's approval with how a human approves it.
 */
export type SettledView<T> = Omit<T, keyof RecordFields> & {
  hash: string | null
  transaction: TransactionView | null
  allowanceTransaction?: TransactionView | null | undefined
  approval?: PendingApproval | undefined
}

/**
 * The tool view of an in-process action result (swap, stake, multisig).
 * @example settledView(await session.swap(parameters), { serverUrl })
 */
export function settledView<T extends RecordFields>(
  result: T,
  options: ApprovalInstructionsOptions | undefined,
): SettledView<T> {
  const { transaction, allowanceTransaction, approval, ...rest } = result
  const view = transaction ? toTransactionView(transaction) : null
  return {
    ...rest,
    hash: view?.hash ?? null,
    transaction: view,
    ...(allowanceTransaction ? { allowanceTransaction: toTransactionView(allowanceTransaction) } : {}),
    ...(approval ? { approval: pendingApproval(approval, options) } : {}),
  }
}

/** A paused step's approval, from a stored record or the HTTP API's `{ id, expiresAt, ruleId, reason }`. */
export function pendingApproval(
  approval: {
    id: string
    expiresAt: string
    ruleId?: string | null | undefined
    reason: string
    status?: ApprovalRecord['status'] | undefined
  },
  options: ApprovalInstructionsOptions | undefined,
): PendingApproval {
  const { id, expiresAt, ruleId, reason } = approval
  return {
    id,
    status: approval.status ?? 'pending',
    expiresAt,
    ruleId: ruleId ?? null,
    reason,
    howToApprove: approvalInstructions(id, options),
  }
}
