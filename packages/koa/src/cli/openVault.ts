import type { KeyVault, Storage } from '@agentwallet/core'
import type { Env, ServerConfig } from './loadConfig.js'
import type { VaultConfig } from './parseVaultConfig.js'

/**
 * The configured KeyVault, or `undefined` for `local`: createAgentWallet then builds the local vault
 * over `storage` from the master key itself (and checks that key against the stored wallet keys at
 * start). A KMS vault's package is imported only when chosen, so a local server never loads an SDK.
 * @example const vault = await openVault(config, process.env, storage)
 */
export async function openVault(
  config: Pick<ServerConfig, 'vault'>,
  env: Env,
  storage: Storage,
): Promise<KeyVault | undefined> {
  const vault = config.vault
  switch (vault.kind) {
    case 'local':
      return undefined
    case 'aws-kms':
      return openAwsKmsVault(vault, env, storage)
    case 'gcp-kms':
      return openGcpKmsVault(vault, env, storage)
  }
}

/** AWS KMS; credentials from env (AWS_ACCESS_KEY_ID…), else the SDK's chain (profile, SSO, instance role). */
async function openAwsKmsVault(
  vault: Extract<VaultConfig, { kind: 'aws-kms' }>,
  env: Env,
  storage: Storage,
): Promise<KeyVault> {
  const { awsKmsKeyVault, kmsKeyRecordStore } = await import('@agentwallet/vault-kms/aws')
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env
  return awsKmsKeyVault({
    region: vault.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION,
    endpoint: vault.endpoint,
    credentials:
      accessKeyId && secretAccessKey
        ? { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN || undefined }
        : undefined,
    store: kmsKeyRecordStore(storage),
  })
}

/** Google Cloud KMS; credentials from GOOGLE_APPLICATION_CREDENTIALS, else Application Default Credentials. */
async function openGcpKmsVault(
  vault: Extract<VaultConfig, { kind: 'gcp-kms' }>,
  env: Env,
  storage: Storage,
): Promise<KeyVault> {
  const { gcpKmsKeyVault, kmsKeyRecordStore } = await import('@agentwallet/vault-kms/gcp')
  const endpoint = vault.endpoint ? new URL(vault.endpoint) : undefined
  return gcpKmsKeyVault({
    clientOptions: {
      fallback: vault.transport === 'rest',
      ...(env.GOOGLE_APPLICATION_CREDENTIALS ? { keyFilename: env.GOOGLE_APPLICATION_CREDENTIALS } : {}),
      ...(endpoint
        ? {
            apiEndpoint: endpoint.hostname,
            ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
            // Plain HTTP only over REST (a local proxy, a test); gRPC always uses TLS here.
            ...(endpoint.protocol === 'http:' ? { protocol: 'http' } : {}),
          }
        : {}),
    },
    keyRing: vault.keyRing,
    protectionLevel: vault.protectionLevel,
    store: kmsKeyRecordStore(storage),
  })
}
