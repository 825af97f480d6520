import { isCodedError } from './httpError.js'
import { type HttpErrorCode, isExposed, statusByCode } from './statusByCode.js'

export type ErrorEnvelope = {
  success: false
  error: { code: HttpErrorCode; message: string; details?: Record<string, unknown> }
}

/**
 * The status and body of any thrown value. Unknown errors (and 5xx codes that could carry internal
 * text) become a generic `internal` with no message text, stack or cause.
 * @example const { status, body } = toErrorEnvelope(error)
 */
export function toErrorEnvelope(error: unknown): { status: number; body: ErrorEnvelope } {
  if (isCodedError(error) && isExposed(error.code)) {
    const message = 'shortMessage' in error ? error.shortMessage : error.message
    const body: ErrorEnvelope = { success: false, error: { code: error.code, message } }
    if (error.details && Object.keys(error.details).length > 0) body.error.details = error.details
    return { status: statusByCode[error.code], body }
  }
  return {
    status: 500,
    body: { success: false, error: { code: 'internal', message: 'Internal server error' } },
  }
}
