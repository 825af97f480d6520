import { AgentWalletHttpError } from '@agentwallet/client'
import { isAgentWalletError } from '@agentwallet/core/contract'

/** The client's codes for a request no server answered. */
const unanswered = new Set(['timeout', 'network_error'])

/** A failed tool call as the model sees it: a stable `code` to act on, a message, and the facts. */
export type ToolError = { code: string; message: string; details?: Record<string, unknown> | undefined }

/**
 * The tool error of anything a handler threw: AgentWallet errors keep their code and details
 * (in-process and from the server alike); anything else is `internal`, without its text.
 * @example catch (error) { const { code } = toToolError(error) }
 */
export function toToolError(error: unknown): ToolError {
  // The client's failures are of core's family too: those where no server answered go first.
  if ((error instanceof AgentWalletHttpError && unanswered.has(error.code)) || isUnreachable(error)) {
    return { code: 'server_unavailable', message: 'The AgentWallet server did not answer; try again later' }
  }
  if (isAgentWalletError(error)) return withDetails(error.code, error.shortMessage, error.details)
  // Unknown errors may carry internals (paths, URLs with credentials): the model gets none of it.
  return { code: 'internal', message: 'Internal error' }
}

function withDetails(code: string, message: string, details: Record<string, unknown> | undefined): ToolError {
  return details === undefined ? { code, message } : { code, message, details }
}

/** fetch's network failure (a TypeError caused by a system error like ECONNREFUSED) or the client's timeout. */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true
  const cause = error.cause as { code?: unknown } | undefined
  return error instanceof TypeError && typeof cause?.code === 'string'
}
