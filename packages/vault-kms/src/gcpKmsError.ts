import { BaseError, isAgentWalletError } from '@agentwallet/core'

// gRPC status codes: CANCELLED, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED (quota, throttling), ABORTED,
// INTERNAL, UNAVAILABLE.
const transientGrpcCodes = new Set([1, 4, 8, 10, 13, 14])
const isTransientHttpStatus = (status: number) => status === 408 || status === 429 || status >= 500

type ClientError = { code?: unknown; status?: unknown }

/**
 * Our error for what the Google Cloud KMS client threw, never by its text: over REST (`fallback`)
 * the HTTP status of the answer, over gRPC its status code. Throttling, server faults and no answer
 * at all (the network) are `vault_unavailable` (503); the rest (permission denied, a key not found
 * or disabled) `vault_error`.
 * @example client.asymmetricSign(request).catch((error) => { throw gcpKmsError(error, 'AsymmetricSign') })
 */
export function gcpKmsError(error: unknown, operation: string): BaseError {
  if (isAgentWalletError(error)) return error
  const { code, status } = (typeof error === 'object' && error !== null ? error : {}) as ClientError
  const httpStatus = typeof status === 'number' ? status : undefined
  const grpcCode = httpStatus === undefined && typeof code === 'number' ? code : undefined
  const unavailable =
    httpStatus !== undefined
      ? isTransientHttpStatus(httpStatus)
      : grpcCode === undefined || transientGrpcCodes.has(grpcCode)
  return new BaseError(
    unavailable ? 'vault_unavailable' : 'vault_error',
    unavailable ? 'Google Cloud KMS is not reachable now' : 'Google Cloud KMS refused the request',
    {
      details: { service: 'gcp-kms', operation, status: httpStatus ?? grpcCode ?? 'no answer' },
      cause: error,
    },
  )
}
