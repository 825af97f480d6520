import type { KeyRecordStore, KeyVault } from '@agentwallet/core'
import { KMSClient, type KMSClientConfig } from '@aws-sdk/client-kms'
import { awsKmsBackend } from './awsKmsBackend.js'
import type { KmsKeyRecord } from './kmsKeyRecord.js'
import { type KmsKeyVaultOptions, kmsKeyVault } from './kmsKeyVault.js'

export { awsKmsBackend } from './awsKmsBackend.js'
export { awsKmsError } from './awsKmsError.js'
export type { KmsBackend, KmsKey } from './kmsBackend.js'
export { type KmsKeyRecord, kmsKeysCollection } from './kmsKeyRecord.js'
export { kmsKeyRecordStore } from './kmsKeyRecordStore.js'
export { type KmsKeyVaultOptions, kmsKeyVault } from './kmsKeyVault.js'

export type AwsKmsKeyVaultOptions = {
  /** A client of your own; else one is made from `region`, `endpoint` and `credentials`. */
  client?: KMSClient | undefined
  /** Passed to `new KMSClient()`; unset fields come from the SDK's standard env and config files. */
  region?: string | undefined
  endpoint?: string | undefined
  credentials?: KMSClientConfig['credentials']
  /** Address → KMS key id, e.g. `kmsKeyRecordStore(storage)`. */
  store: KeyRecordStore<KmsKeyRecord>
  probeTimeoutMs?: number | undefined
} & Pick<KmsKeyVaultOptions, 'name' | 'signatureAttempts' | 'onInvalidSignature'>

/**
 * A KeyVault whose secp256k1 keys (key spec ECC_SECG_P256K1) and Ed25519 keys (ECC_NIST_EDWARDS25519,
 * signed with ED25519_SHA_512) live in AWS KMS and never leave it.
 * @example const vault = awsKmsKeyVault({ region: 'eu-west-1', store: kmsKeyRecordStore(storage) })
 */
export function awsKmsKeyVault(options: AwsKmsKeyVaultOptions): KeyVault {
  const client =
    options.client ??
    new KMSClient({
      ...(options.region ? { region: options.region } : {}),
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    })
  return kmsKeyVault({
    ...options,
    name: options.name ?? 'aws-kms',
    backend: awsKmsBackend(client, { probeTimeoutMs: options.probeTimeoutMs }),
  })
}
