import { z } from 'zod'
import { out } from '../schemas/out.js'
import { pageFields } from '../schemas/primitives.js'
import type { ApprovalRecord } from './types.js'

const approvalStatuses = ['pending', 'approved', 'rejected', 'expired'] as const

/** A human-in-the-loop approval as the API shows it. */
export const approvalSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  walletId: z.string(),
  transactionId: z.string(),
  /** The key that asked: it cannot resolve its own approval. */
  requestedBy: z.string(),
  status: z.enum(approvalStatuses),
  ruleId: z.string().optional(),
  reason: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
  expiresAt: out.timestamp,
  createdAt: out.timestamp,
  resolvedBy: z.string().optional(),
  resolvedAt: out.timestamp.optional(),
  resolutionReason: z.string().optional(),
})

/** What a paused answer (HTTP 202) says of the approval it waits for. */
export const approvalSummarySchema = z.object({
  id: z.string(),
  expiresAt: out.timestamp,
  ruleId: z.string().nullable(),
  reason: z.string(),
})
export type ApprovalSummary = z.infer<typeof approvalSummarySchema>

/**
 * The summary of an approval a paused step waits for.
 * @example toApprovalSummary(result.approval)
 */
export function toApprovalSummary({ id, expiresAt, ruleId, reason }: ApprovalRecord): ApprovalSummary {
  return { id, expiresAt, ruleId: ruleId ?? null, reason }
}

export const listApprovalsSchema = z.strictObject({
  status: z.enum(approvalStatuses).optional(),
  ...pageFields({ defaultLimit: 50, maxLimit: 200 }),
})
export type ListApprovalsParameters = z.input<typeof listApprovalsSchema>
