import type { ApprovalRecord } from '../approvals/types.js'
import { effectsHeadline } from '../schemas/effectsHeadline.js'
import type { ApprovalSummary } from './transactionSchemas.js'

/**
 * The summary of an approval a paused step waits for, led by what it does (`effectsHeadline`).
 * @example toApprovalSummary(result.approval)
 */
export function toApprovalSummary({
  id,
  expiresAt,
  ruleId,
  reason,
  effects,
}: ApprovalRecord): ApprovalSummary {
  return {
    id,
    expiresAt,
    ruleId: ruleId ?? null,
    reason,
    ...(effects ? { effects, headline: effectsHeadline(effects) } : {}),
  }
}
