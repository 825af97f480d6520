/**
 * An error response of the server: its envelope's `code`, the HTTP `status`, and `details`.
 * Classify by `code`, never by message text.
 * @example try { await client.send(address, params) } catch (e) { if (e instanceof AgentWalletHttpError && e.code === 'policy_blocked') … }
 */
export class AgentWalletHttpError extends Error {
  override name = 'AgentWalletHttpError'
  readonly code: string
  readonly status: number
  readonly details: Record<string, unknown> | undefined
  readonly requestId: string | undefined

  constructor(parameters: {
    code: string
    message: string
    status: number
    details?: Record<string, unknown> | undefined
    requestId?: string | undefined
  }) {
    super(parameters.message)
    this.code = parameters.code
    this.status = parameters.status
    this.details = parameters.details
    this.requestId = parameters.requestId
  }
}
