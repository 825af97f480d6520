import { BaseError, type BaseErrorParameters } from '@agentwallet/core'
import type { EdgeErrorCode } from './statusByCode.js'

/**
 * An error of the HTTP edge itself (body too large, wrong media type, method). Core errors pass
 * through unchanged; these carry codes core does not know.
 * @example throw new HttpError('payload_too_large', 'Request body exceeds 100 kB')
 */
export class HttpError extends Error {
  override name = 'HttpError'
  readonly code: EdgeErrorCode
  readonly details: Record<string, unknown> | undefined
  constructor(code: EdgeErrorCode, message: string, parameters: BaseErrorParameters = {}) {
    super(message)
    this.code = code
    this.details = parameters.details
  }
}

/** True for errors that carry an envelope code (core's BaseError or the edge's HttpError). */
export function isCodedError(error: unknown): error is BaseError | HttpError {
  return error instanceof BaseError || error instanceof HttpError
}
