import { z } from 'zod'

/** How a human lets a paused action through: an approver or admin key, never the agent's own. */
export const approvalInstructionsSchema = z
  .object({
    message: z.string(),
    /** The API route that approves (POST with an approver or admin key). */
    approveUrl: z.string().optional(),
    curl: z.string().optional(),
    /** The operator's dashboard page for this approval, when configured. */
    dashboardUrl: z.string().optional(),
  })
  .describe(
    'What a human does to approve: relay it to your user. This agent cannot approve; do not retry the action.',
  )
export type ApprovalInstructions = z.infer<typeof approvalInstructionsSchema>

export type ApprovalInstructionsOptions = {
  /** Base URL of the AgentWallet server humans reach (e.g. `https://wallets.example`). */
  serverUrl?: string | undefined
  /** A dashboard page per approval; `{id}` is replaced by the approval id. */
  dashboardUrl?: string | undefined
}

/**
 * The instructions an agent relays to its human for approval `approvalId`, led by what it does
 * (`headline`: the approval's, built from its effects) when known.
 * @example approvalInstructions('apr_1', { serverUrl: 'http://127.0.0.1:8080' }).curl
 */
export function approvalInstructions(
  approvalId: string,
  options: ApprovalInstructionsOptions = {},
  headline?: string | undefined,
): ApprovalInstructions {
  const id = encodeURIComponent(approvalId)
  const dashboardUrl = options.dashboardUrl?.replaceAll('{id}', id)
  const base = options.serverUrl?.replace(/\/$/, '')
  const approveUrl = base ? `${base}/policy/approvals/${id}/approve` : undefined
  // The key variable is a placeholder on purpose: the agent never holds an approver key.
  const curl = approveUrl ? `curl -X POST -H "X-API-Key: $AGENTWALLET_APPROVER_KEY" ${approveUrl}` : undefined
  const where = dashboardUrl ?? approveUrl ?? `POST /policy/approvals/${id}/approve on the AgentWallet server`
  return {
    message:
      `${headline ? `Waiting for a human to allow this: ${headline}. Someone` : 'Waiting for a human: someone'} with an approver or admin key approves (or rejects) approval ${approvalId} at ${where}. ` +
      'This agent cannot approve it. Do not retry the action or try another way around it: it is saved, and goes ahead by itself once approved. ' +
      'Tell your user, then check the outcome later with get_approval.',
    ...(approveUrl ? { approveUrl, curl } : {}),
    ...(dashboardUrl ? { dashboardUrl } : {}),
  }
}
