import type { KeyRecordStore, KeyVault } from '@agentwallet/core'
import { KeyManagementServiceClient } from '@google-cloud/kms'
import { type GcpKmsBackendOptions, gcpKmsBackend } from './gcpKmsBackend.js'
import type { KmsKeyRecord } from './kmsKeyRecord.js'
import { type KmsKeyVaultOptions, kmsKeyVault } from './kmsKeyVault.js'

export { type GcpKmsBackendOptions, gcpKmsBackend } from './gcpKmsBackend.js'
export { gcpKmsError } from './gcpKmsError.js'
export type { KmsBackend, KmsKey } from './kmsBackend.js'
export { type KmsKeyRecord, kmsKeysCollection } from './kmsKeyRecord.js'
export { kmsKeyRecordStore } from './kmsKeyRecordStore.js'
export { type KmsKeyVaultOptions, kmsKeyVault } from './kmsKeyVault.js'

export type GcpKmsKeyVaultOptions = GcpKmsBackendOptions & {
  /**
   * A client of your own (say `new KeyManagementServiceClient({ fallback: true })` for HTTP/JSON
   * instead of gRPC); else one with the library's defaults: gRPC and Application Default Credentials.
   */
  client?: KeyManagementServiceClient | undefined
  /** Options of the client made when none is given (`fallback: true` for HTTP/JSON, `apiEndpoint`, `keyFilename`). */
  clientOptions?: ConstructorParameters<typeof KeyManagementServiceClient>[0]
  /** Address → KMS key version, e.g. `kmsKeyRecordStore(storage)`. */
  store: KeyRecordStore<KmsKeyRecord>
} & Pick<KmsKeyVaultOptions, 'name' | 'signatureAttempts' | 'onInvalidSignature'>

/**
 * A KeyVault whose secp256k1 keys (EC_SIGN_SECP256K1_SHA256) and Ed25519 keys (EC_SIGN_ED25519) live
 * in Google Cloud KMS (HSM by default) and never leave it.
 * @example const vault = gcpKmsKeyVault({ keyRing: 'projects/p/locations/global/keyRings/agents', store: kmsKeyRecordStore(storage) })
 */
export function gcpKmsKeyVault(options: GcpKmsKeyVaultOptions): KeyVault {
  const client = options.client ?? new KeyManagementServiceClient(options.clientOptions)
  return kmsKeyVault({
    ...options,
    name: options.name ?? 'gcp-kms',
    backend: gcpKmsBackend(client, options),
  })
}
