import {
  BaseError,
  type BaseErrorParameters,
  ChainUnavailableError,
  ConflictError,
  type ContractName,
  type ContractNamed,
  type commonErrors,
  EffectsChangedError,
  type ErrorCode,
  ForbiddenError,
  NotFoundError,
  NotImplementedError,
  PolicyBlockedError,
  ValidationError,
} from '@agentwallet/core/contract'

/** Codes the HTTP edge answers before any operation runs (a server not ready, a request it will not read). */
export type EdgeErrorCode = 'not_ready' | 'request_timeout' | 'header_too_large'

/**
 * Codes only the client raises: no answer (`timeout`, `network_error`, status 0), a body that is not
 * the envelope (`http_error`), an answer outside its declared output (`invalid_response`).
 */
export type TransportErrorCode = 'timeout' | 'network_error' | 'http_error' | 'invalid_response'

/** Every code a client call can fail with. */
export type ClientErrorCode = ErrorCode | EdgeErrorCode | TransportErrorCode

/**
 * A failed call: an error of core's family (`BaseError`, or its class for the code: `not_found` is a
 * `NotFoundError`), with the HTTP `status` (0 when nothing was answered) and the `requestId` to quote
 * in a report. Classify by `code`, never by message text.
 * @example try { await client.send({ wallet, to, value }) } catch (e) { if (e instanceof AgentWalletHttpError && e.code === 'policy_blocked') … }
 */
export type AgentWalletHttpError<TCode extends ClientErrorCode = ClientErrorCode> = Omit<
  BaseError,
  'code'
> & {
  readonly code: TCode
  /** The HTTP status, or 0 when no answer was received. */
  readonly status: number
  readonly requestId: string | undefined
}

/**
 * A failure of operation `N`: its declared codes, those of every operation, and those of the edge
 * and the transport.
 * @example catch (e) { if (e instanceof AgentWalletHttpError) (e as OperationError<'getWallet'>).code // 'not_found' | … }
 */
export type OperationError<N extends ContractName> = AgentWalletHttpError<
  ContractNamed<N>['errors'][number] | (typeof commonErrors)[number] | EdgeErrorCode | TransportErrorCode
>

/** `error instanceof AgentWalletHttpError`: any error a client call threw (a `BaseError` with a status). */
export const AgentWalletHttpError: { [Symbol.hasInstance](value: unknown): value is AgentWalletHttpError } = {
  [Symbol.hasInstance]: (value: unknown): value is AgentWalletHttpError =>
    value instanceof BaseError && typeof (value as { status?: unknown }).status === 'number',
}

// Each class of core's family names its code; a code without its own class is a `BaseError`.
const classes = new Map<string, new (message: string, parameters?: BaseErrorParameters) => BaseError>(
  [
    ValidationError,
    NotFoundError,
    PolicyBlockedError,
    ForbiddenError,
    ConflictError,
    ChainUnavailableError,
    NotImplementedError,
    EffectsChangedError,
  ].map((errorClass) => [errorClass.code, errorClass]),
)

/**
 * The error a failed call throws: the class of core's family for `code`, carrying the server's
 * message as it is, its details, the status and the request id.
 * @example throw toHttpError({ code: 'not_found', message: 'Wallet not found', status: 404 })
 */
export function toHttpError(parameters: {
  code: string
  message: string
  status: number
  details?: Record<string, unknown> | undefined
  requestId?: string | undefined
  cause?: unknown
}): AgentWalletHttpError {
  const { code, message, status, details, requestId, cause } = parameters
  const errorClass = classes.get(code)
  const error = errorClass
    ? new errorClass(message, { details, cause })
    : new BaseError(code as ErrorCode, message, { details, cause })
  // A class may word its own message (`NotFoundError('Wallet')`): the server's is kept as it came.
  return Object.assign(error, {
    code,
    message,
    shortMessage: message,
    status,
    requestId,
  }) as AgentWalletHttpError
}
