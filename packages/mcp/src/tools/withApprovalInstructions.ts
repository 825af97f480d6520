import { type ApprovalInstructionsOptions, approvalInstructions } from './approvalInstructions.js'

/**
 * An answer that waits for a human, with `howToApprove` beside it: a paused action
 * (`status: 'pending_approval'` with its `approval`) or an approval read back while still pending;
 * its message leads with what the action does (the approval's `headline`).
 * Any other answer is returned as it is. Derived from the answer's shape, never per operation.
 * @example withApprovalInstructions(await backend.call('send', input, {}), { serverUrl })
 */
export function withApprovalInstructions(
  answer: Record<string, unknown>,
  options: ApprovalInstructionsOptions,
): Record<string, unknown> {
  const approval = answer.approval
  if (!isRecord(approval) || typeof approval.id !== 'string') return answer
  const waits = answer.status === 'pending_approval' || approval.status === 'pending'
  const headline = typeof approval.headline === 'string' ? approval.headline : undefined
  return waits ? { ...answer, howToApprove: approvalInstructions(approval.id, options, headline) } : answer
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
