import { BaseError, isAgentWalletError } from '@agentwallet/core'

// KMS's own "try again later" errors; the SDK has retried them already when they reach us.
const transientNames = new Set([
  'ThrottlingException',
  'KMSInternalException',
  'DependencyTimeoutException',
  'KeyUnavailableException',
  'TimeoutError',
  'AbortError',
])

type SdkError = { name?: unknown; $fault?: unknown; $metadata?: { httpStatusCode?: unknown } }

/**
 * Our error for what the AWS SDK threw, by its class name and HTTP fault, never its text:
 * throttling, KMS-side faults and no answer at all are `vault_unavailable` (503); the rest
 * (a missing permission, a disabled or deleted key, no credentials) `vault_error`.
 * @example client.send(command).catch((error) => { throw awsKmsError(error, 'Sign') })
 */
export function awsKmsError(error: unknown, operation: string): BaseError {
  if (isAgentWalletError(error)) return error
  const sdkError = (typeof error === 'object' && error !== null ? error : {}) as SdkError
  const name = typeof sdkError.name === 'string' ? sdkError.name : 'unknown'
  const answered = typeof sdkError.$metadata?.httpStatusCode === 'number'
  const unavailable =
    transientNames.has(name) ||
    sdkError.$fault === 'server' ||
    // No HTTP answer: the network (a refused or reset connection), unless the SDK had no credentials.
    (!answered && name !== 'CredentialsProviderError')
  return new BaseError(
    unavailable ? 'vault_unavailable' : 'vault_error',
    unavailable ? 'AWS KMS is not reachable now' : 'AWS KMS refused the request',
    { details: { service: 'aws-kms', operation, error: name }, cause: error },
  )
}
