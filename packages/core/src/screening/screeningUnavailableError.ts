import { BaseError, type BaseErrorParameters } from '../errors/baseError.js'

/**
 * A screening source could not answer (no reply, an error status, an answer it could not read):
 * retry later. Never read as "clear"; the `screen_counterparties` rule's `onOutage` says what a send does.
 */
export class ScreeningUnavailableError extends BaseError {
  override name = 'ScreeningUnavailableError'
  static readonly code = 'screening_unavailable'
  constructor(source: string, parameters?: BaseErrorParameters) {
    super('screening_unavailable', `Screening source "${source}" is unavailable`, {
      ...parameters,
      details: { source, ...parameters?.details },
    })
  }
}
