import { BaseError, isAgentWalletError } from '@agentwallet/core'

// gRPC status codes (google-gax gives them over REST too): CANCELLED, DEADLINE_EXCEEDED,
// RESOURCE_EXHAUSTED (quota, throttling), ABORTED, INTERNAL, UNAVAILABLE.
const transientCodes = new Set([1, 4, 8, 10, 13, 14])

/**
 * Our error for what the Google Cloud KMS client threw, by its gRPC status code, never its text:
 * throttling, server faults and no answer at all (no status: the network) are `vault_unavailable`
 * (503); the rest (permission denied, a key not found or disabled) `vault_error`.
 * @example client.asymmetricSign(request).catch((error) => { throw gcpKmsError(error, 'AsymmetricSign') })
 */
export function gcpKmsError(error: unknown, operation: string): BaseError {
  if (isAgentWalletError(error)) return error
  const code = (error as { code?: unknown } | null)?.code
  const status = typeof code === 'number' ? code : undefined
  const unavailable = status === undefined || transientCodes.has(status)
  return new BaseError(
    unavailable ? 'vault_unavailable' : 'vault_error',
    unavailable ? 'Google Cloud KMS is not reachable now' : 'Google Cloud KMS refused the request',
    { details: { service: 'gcp-kms', operation, status: status ?? 'no answer' }, cause: error },
  )
}
