/**
 * A failed call: the server's envelope `code`, the HTTP `status`, `details` and the `requestId` to
 * quote in a report. A body that is not the envelope is `http_error`; no answer at all is `timeout`
 * or `network_error` (status 0); an input the client cannot place in a URL is `validation_failed`
 * (status 0, nothing sent); with `validate: true`, an answer outside its declared output is
 * `invalid_response`. Classify by `code`, never by message text.
 * @example try { await client.send({ wallet, to, value }) } catch (e) { if (e instanceof AgentWalletHttpError && e.code === 'policy_blocked') … }
 */
export class AgentWalletHttpError extends Error {
  override name = 'AgentWalletHttpError'
  readonly code: string
  /** The HTTP status, or 0 when no answer was received. */
  readonly status: number
  readonly details: Record<string, unknown> | undefined
  readonly requestId: string | undefined

  constructor(parameters: {
    code: string
    message: string
    status: number
    details?: Record<string, unknown> | undefined
    requestId?: string | undefined
    cause?: unknown
  }) {
    super(parameters.message, parameters.cause === undefined ? undefined : { cause: parameters.cause })
    this.code = parameters.code
    this.status = parameters.status
    this.details = parameters.details
    this.requestId = parameters.requestId
  }
}
