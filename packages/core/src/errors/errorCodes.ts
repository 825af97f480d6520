/**
 * Every error code core can raise. Codes are snake_case, stable, and the only thing callers
 * (and the HTTP edge's status table) classify errors by.
 */
export const errorCodes = [
  'validation_failed',
  'not_found',
  'unauthorized',
  'forbidden',
  'conflict',
  'policy_blocked',
  'insufficient_funds',
  'idempotency_conflict',
  'rate_limited',
  'chain_unavailable',
  'user_operation_rejected',
  'quote_source_unavailable',
  'unsupported_chain',
  'unsupported_protocol',
  'slippage_exceeded',
  'no_route',
  'payment_not_payable',
  'payment_requirements_invalid',
  'payment_failed',
  'payment_not_delivered',
  'authorization_expired',
  'authorization_cancelled',
  'resource_unavailable',
  'approval_not_pending',
  'approval_expired',
  'transaction_not_pending',
  'effects_changed',
  'wallet_kind_unsupported',
  'key_decryption_failed',
  'master_key_mismatch',
  'vault_error',
  'vault_unavailable',
  'storage_conflict',
  'transaction_failed',
  'not_implemented',
  'internal',
] as const

export type ErrorCode = (typeof errorCodes)[number]
