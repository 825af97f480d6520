import * as z from 'zod/mini'
import { chainErrors, defineContracts } from '../schemas/defineContract.js'
import {
  approvalFundsSchema,
  approvalSchema,
  listApprovalsSchema,
  resolveApprovalAnswerSchema,
} from './approvalSchemas.js'
import { resolveApprovalSchema } from './resolveApprovalSchema.js'

const approvalIdField = resolveApprovalSchema.shape.approvalId

/** Human-in-the-loop approvals of paused intents. (contracts: what each operation takes, answers and may fail with) */
export const approvalContract = defineContracts({
  listApprovals: {
    summary: 'Approvals of the tenant, newest first (an agent sees the ones it asked for)',
    description:
      'Approvals this caller may see, newest first: an agent sees the ones its paused sends asked for, with their status (pending, approved, rejected, expired).',
    input: listApprovalsSchema,
    output: z.object({ count: z.number().check(z.int()), approvals: z.array(approvalSchema) }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/policy/approvals', status: 200 },
    errors: [],
    tool: true,
  },
  getApproval: {
    summary: 'One approval',
    description:
      'One approval by id: whether a human approved, rejected or let expire the paused intent it holds.',
    input: z.strictObject({ approvalId: approvalIdField }),
    output: z.object({ approval: approvalSchema }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/policy/approvals/:approvalId', status: 200 },
    errors: ['not_found'],
    tool: true,
  },
  checkApprovalFunds: {
    summary:
      'Whether the wallet can still pay a pending approval’s intent: balance against value + token amount + gas',
    description:
      'For a pending approval: the wallet’s balance against what approving would need now (the value, the token amount it pays, and gas at current fees), checked as approving checks it. `covered: false` means approving would fail with insufficient_funds.',
    input: z.strictObject({ approvalId: approvalIdField }),
    output: approvalFundsSchema,
    roles: ['approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/policy/approvals/:approvalId/funds', status: 200 },
    errors: ['not_found', 'approval_not_pending', 'transaction_failed', ...chainErrors],
    tool: false,
  },
  approve: {
    summary:
      'Approve a paused intent: executes exactly that intent once (approver or admin; not the key that asked)',
    description:
      'Approve a paused intent: it is executed once, after deny rules and funds are checked again. Its effects are predicted again: if it would now move more, or to another counterparty, than the approval shows, it is not sent (`effects_changed`) and a new approval waits. Approver and admin keys only, and never the key that asked.',
    input: resolveApprovalSchema,
    output: resolveApprovalAnswerSchema,
    roles: ['approver', 'admin'],
    idempotent: false,
    movesValue: true,
    http: { method: 'post', path: '/policy/approvals/:approvalId/approve', status: 200 },
    errors: [
      'not_found',
      'approval_not_pending',
      'approval_expired',
      'effects_changed',
      'policy_blocked',
      'insufficient_funds',
      'transaction_failed',
      ...chainErrors,
    ],
    tool: false,
  },
  reject: {
    summary: 'Reject a paused intent and release its reserved spend (approver or admin)',
    description: 'Reject a paused intent and release its reserved spend. Approver and admin keys only.',
    input: resolveApprovalSchema,
    output: resolveApprovalAnswerSchema,
    roles: ['approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/policy/approvals/:approvalId/reject', status: 200 },
    errors: ['not_found', 'approval_not_pending', 'approval_expired'],
    tool: false,
  },
})
