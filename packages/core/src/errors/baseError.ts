import type { ErrorCode } from './errorCodes.js'

export type BaseErrorParameters = {
  /** Machine-readable facts about the failure (rule ids, limits, field paths). Never secrets. */
  details?: Record<string, unknown> | undefined
  cause?: unknown
}

/**
 * The one error class of AgentWallet. Classify by `code`, never by message text.
 * @example throw new BaseError('not_found', 'Wallet not found', { details: { address } })
 */
export class BaseError extends Error {
  override name = 'AgentWalletError'
  readonly code: ErrorCode
  readonly shortMessage: string
  readonly details: Record<string, unknown> | undefined

  constructor(code: ErrorCode, shortMessage: string, parameters: BaseErrorParameters = {}) {
    super(shortMessage, parameters.cause === undefined ? undefined : { cause: parameters.cause })
    this.code = code
    this.shortMessage = shortMessage
    this.details = parameters.details
  }

  /** Walks the cause chain and returns the first error matching `predicate` (or the deepest). */
  walk(predicate?: (error: unknown) => boolean): unknown {
    let current: unknown = this
    while (current instanceof Error) {
      if (predicate?.(current)) return current
      if (current.cause === undefined) return predicate ? undefined : current
      current = current.cause
    }
    return predicate ? undefined : current
  }
}

/** True when `error` is an AgentWallet error, optionally with the given code. */
export function isAgentWalletError(error: unknown, code?: ErrorCode): error is BaseError {
  return error instanceof BaseError && (code === undefined || error.code === code)
}
