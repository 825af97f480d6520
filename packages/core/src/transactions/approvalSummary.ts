import { z } from 'zod'
import type { ApprovalRecord } from '../approvals/types.js'
import { storedEffectsSchema } from '../effects/storedEffectsSchema.js'
import { out } from '../schemas/out.js'

/** What a paused answer (HTTP 202) says of the approval it waits for. */
export const approvalSummarySchema = z.object({
  id: z.string(),
  expiresAt: out.timestamp,
  ruleId: z.string().nullable(),
  reason: z.string(),
  /** What the approver will be shown: the transaction's effects (absent for an intent made before effects). */
  effects: storedEffectsSchema.optional(),
})
export type ApprovalSummary = z.infer<typeof approvalSummarySchema>

/**
 * The summary of an approval a paused step waits for.
 * @example toApprovalSummary(result.approval)
 */
export function toApprovalSummary({
  id,
  expiresAt,
  ruleId,
  reason,
  effects,
}: ApprovalRecord): ApprovalSummary {
  return { id, expiresAt, ruleId: ruleId ?? null, reason, ...(effects ? { effects } : {}) }
}
