import type { ErrorCode } from '@agentwallet/core'

/** Codes only the HTTP edge raises (transport-level problems core never sees). */
export type EdgeErrorCode =
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'header_too_large'
  | 'not_ready'

export type HttpErrorCode = ErrorCode | EdgeErrorCode

/**
 * The one table from error code to HTTP status (DESIGN §6). Every error response goes through it;
 * a code missing here is a type error, so a new core code cannot silently become a 500.
 */
export const statusByCode: Record<HttpErrorCode, number> = {
  validation_failed: 400,
  unsupported_chain: 400,
  unsupported_protocol: 400,
  unauthorized: 401,
  forbidden: 403,
  policy_blocked: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  idempotency_conflict: 409,
  approval_not_pending: 409,
  transaction_not_pending: 409,
  effects_changed: 409,
  storage_conflict: 409,
  approval_expired: 410,
  // Recorded on a released x402 payment (never thrown by an operation): its authorization is gone or
  // was never signed.
  authorization_expired: 410,
  authorization_cancelled: 410,
  payment_abandoned: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  header_too_large: 431,
  insufficient_funds: 422,
  user_operation_rejected: 422,
  transaction_failed: 422,
  slippage_exceeded: 422,
  no_route: 422,
  payment_not_payable: 422,
  wallet_kind_unsupported: 422,
  unsupported_chain_family: 422,
  rate_limited: 429,
  internal: 500,
  key_decryption_failed: 500,
  master_key_mismatch: 500,
  vault_error: 500,
  not_implemented: 501,
  quote_source_unavailable: 502,
  payment_requirements_invalid: 502,
  payment_failed: 502,
  payment_not_delivered: 502,
  resource_unavailable: 502,
  chain_unavailable: 503,
  not_ready: 503,
  vault_unavailable: 503,
  screening_unavailable: 503,
}

/** 5xx codes about another party (a paid resource server, an HSM, a KMS), whose message is ours and safe to show. */
const exposedUpstreamCodes: ReadonlySet<HttpErrorCode> = new Set<HttpErrorCode>([
  'not_implemented',
  'chain_unavailable',
  'vault_unavailable',
  'screening_unavailable',
  'payment_requirements_invalid',
  'payment_failed',
  'payment_not_delivered',
  'resource_unavailable',
])

/** Codes whose message is safe to show: a 5xx from the vault or an unknown fault says only "internal". */
export function isExposed(code: HttpErrorCode): boolean {
  return statusByCode[code] < 500 || exposedUpstreamCodes.has(code)
}
