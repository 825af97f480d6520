import { listApprovalsSchema, type TransactionRecord, toTransactionView } from '@agentwallet/core'
import { z } from 'zod'
import { defineRoute } from './defineRoute.js'

const resolveSchema = z.strictObject({ reason: z.string().trim().max(500).optional() }).optional()

/** Human-in-the-loop approvals of paused sends. */
export const approvalRoutes = [
  defineRoute({
    method: 'get',
    path: '/policy/approvals',
    summary: 'Approvals of the tenant, newest first (an agent sees the ones it asked for)',
    query: listApprovalsSchema,
    handler: async ({ session, query }) => ({
      body: { success: true, ...(await session.listApprovals(query)) },
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/policy/approvals/:id',
    summary: 'One approval',
    handler: async ({ session, params }) => ({
      body: { success: true, approval: await session.getApproval(params.id!) },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/policy/approvals/:id/approve',
    summary:
      'Approve a paused send: executes exactly that intent once (approver or admin; not the key that asked)',
    roles: 'approver, admin',
    body: resolveSchema,
    handler: async ({ session, params, body }) => {
      const { approval, transaction } = await session.approve(params.id!, body ?? {})
      return { body: { success: true, approval, transaction: viewOf(transaction) } }
    },
  }),
  defineRoute({
    method: 'post',
    path: '/policy/approvals/:id/reject',
    summary: 'Reject a paused send and release its reserved spend (approver or admin)',
    roles: 'approver, admin',
    body: resolveSchema,
    handler: async ({ session, params, body }) => {
      const { approval, transaction } = await session.reject(params.id!, body ?? {})
      return { body: { success: true, approval, transaction: viewOf(transaction) } }
    },
  }),
]

const viewOf = (record: TransactionRecord) => toTransactionView(record)
