/** How a human lets a paused send through: an approver or admin key, never the agent's own. */
export type ApprovalInstructions = {
  message: string
  /** The API route that approves (POST with an approver or admin key). */
  approveUrl?: string | undefined
  curl?: string | undefined
  /** The operator's dashboard page for this approval, when configured. */
  dashboardUrl?: string | undefined
}

export type ApprovalInstructionsOptions = {
  /** Base URL of the AgentWallet server humans reach (e.g. `https://wallets.example`). */
  serverUrl?: string | undefined
  /** A dashboard page per approval; `{id}` is replaced by the approval id. */
  dashboardUrl?: string | undefined
}

/**
 * The instructions an agent relays to its human for approval `approvalId`.
 * @example approvalInstructions('apr_1', { serverUrl: 'http://127.0.0.1:8080' }).curl
 */
export function approvalInstructions(
  approvalId: string,
  options: ApprovalInstructionsOptions = {},
): ApprovalInstructions {
  const id = encodeURIComponent(approvalId)
  const dashboardUrl = options.dashboardUrl?.replaceAll('{id}', id)
  const base = options.serverUrl?.replace(/\/$/, '')
  const approveUrl = base ? `${base}/policy/approvals/${id}/approve` : undefined
  // The key variable is a placeholder on purpose: the agent never holds an approver key.
  const curl = approveUrl ? `curl -X POST -H "X-API-Key: $AGENTWALLET_APPROVER_KEY" ${approveUrl}` : undefined
  const where = dashboardUrl ?? approveUrl ?? `POST /policy/approvals/${id}/approve on the AgentWallet server`
  return {
    message: `Waiting for a human: someone with an approver or admin key approves (or rejects) approval ${approvalId} at ${where}. This agent cannot approve it.`,
    ...(approveUrl ? { approveUrl, curl } : {}),
    ...(dashboardUrl ? { dashboardUrl } : {}),
  }
}
