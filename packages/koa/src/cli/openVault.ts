import { isAgentWalletError, type KeyVault, type Storage } from '@agentwallet/core'
import { CliError } from './cliError.js'
import type { Env, ServerConfig } from './loadConfig.js'

/** The vault a server runs on; `vault` undefined is core's default, the local vault over storage. */
export type OpenedVault = { vault: KeyVault | undefined; close(): Promise<void> }

const nothingToClose = async () => {}

/**
 * The configured KeyVault (`--vault`): `local` (keys sealed in storage under the master key), or a
 * vault whose keys never leave hardware (an HSM over PKCS#11, AWS KMS, Google Cloud KMS). Settings come
 * from env over the config file's object named after the kind; secrets (a PIN, cloud credentials) from
 * env only. Vault packages (native parts, cloud SDKs) load only here, when chosen.
 * @example const { vault, close } = await openVault(config, process.env, storage)
 */
export async function openVault(
  config: Pick<ServerConfig, 'vault'>,
  env: Env,
  // The local vault keeps its records in storage (core builds it over the same storage itself); a
  // KMS vault keeps there which KMS key signs for which address.
  storage: Storage,
): Promise<OpenedVault> {
  switch (config.vault.kind) {
    case 'local':
      return { vault: undefined, close: nothingToClose }
    case 'pkcs11':
      return openPkcs11Vault(config.vault.file, env)
    case 'aws-kms':
      return usableAtStart('aws-kms', await openAwsKmsVault(config.vault.file, env, storage))
    case 'gcp-kms':
      return usableAtStart('gcp-kms', await openGcpKmsVault(config.vault.file, env, storage))
  }
}

/** A KMS vault that answered its probe: wrong settings or credentials stop the start, named. */
async function usableAtStart(kind: string, vault: KeyVault): Promise<OpenedVault> {
  await vault.probe?.().catch((error: unknown) => {
    const details = isAgentWalletError(error) && error.details ? ` ${JSON.stringify(error.details)}` : ''
    throw new CliError(`--vault ${kind}: the KMS cannot be used (${describe(error)}${details})`)
  })
  return { vault, close: nothingToClose }
}

/**
 * AWS KMS (`"aws-kms": { "region", "endpoint" }`); credentials from env (AWS_ACCESS_KEY_ID…), else the
 * SDK's chain (profile, SSO, instance or task role).
 */
async function openAwsKmsVault(file: Record<string, unknown>, env: Env, storage: Storage): Promise<KeyVault> {
  const endpoint = url(
    'AGENTWALLET_AWS_KMS_ENDPOINT',
    setting(env.AGENTWALLET_AWS_KMS_ENDPOINT, file.endpoint),
  )
  const { awsKmsKeyVault, kmsKeyRecordStore } = await importKmsPackage(
    'aws-kms',
    () => import('@agentwallet/vault-kms/aws'),
  )
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env
  return awsKmsKeyVault({
    region: setting(env.AGENTWALLET_AWS_KMS_REGION, file.region) ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION,
    endpoint,
    credentials:
      accessKeyId && secretAccessKey
        ? { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN || undefined }
        : undefined,
    store: kmsKeyRecordStore(storage),
  })
}

/**
 * Google Cloud KMS (`"gcp-kms": { "keyRing", "protectionLevel", "transport", "endpoint" }`); credentials
 * from GOOGLE_APPLICATION_CREDENTIALS, else Application Default Credentials.
 */
async function openGcpKmsVault(file: Record<string, unknown>, env: Env, storage: Storage): Promise<KeyVault> {
  const keyRing = setting(env.AGENTWALLET_GCP_KMS_KEY_RING, file.keyRing)
  if (!keyRing || !/^projects\/[^/]+\/locations\/[^/]+\/keyRings\/[^/]+$/.test(keyRing))
    throw new CliError(
      '--vault gcp-kms needs AGENTWALLET_GCP_KMS_KEY_RING=projects/<project>/locations/<location>/keyRings/<ring> (or "keyRing")',
    )
  const protectionLevel = oneOf(
    'AGENTWALLET_GCP_KMS_PROTECTION_LEVEL',
    setting(env.AGENTWALLET_GCP_KMS_PROTECTION_LEVEL, file.protectionLevel) ?? 'HSM',
    ['HSM', 'SOFTWARE'] as const,
  )
  const transport = oneOf(
    'AGENTWALLET_GCP_KMS_TRANSPORT',
    setting(env.AGENTWALLET_GCP_KMS_TRANSPORT, file.transport) ?? 'grpc',
    ['grpc', 'rest'] as const,
  )
  const endpoint = url(
    'AGENTWALLET_GCP_KMS_ENDPOINT',
    setting(env.AGENTWALLET_GCP_KMS_ENDPOINT, file.endpoint),
  )
  const { gcpKmsKeyVault, kmsKeyRecordStore } = await importKmsPackage(
    'gcp-kms',
    () => import('@agentwallet/vault-kms/gcp'),
  )
  const at = endpoint ? new URL(endpoint) : undefined
  return gcpKmsKeyVault({
    keyRing,
    protectionLevel,
    store: kmsKeyRecordStore(storage),
    clientOptions: {
      fallback: transport === 'rest',
      ...(env.GOOGLE_APPLICATION_CREDENTIALS ? { keyFilename: env.GOOGLE_APPLICATION_CREDENTIALS } : {}),
      ...(at
        ? {
            apiEndpoint: at.hostname,
            ...(at.port ? { port: Number(at.port) } : {}),
            // Plain HTTP only over REST (a local proxy, a test); gRPC always uses TLS here.
            ...(at.protocol === 'http:' ? { protocol: 'http' } : {}),
          }
        : {}),
    },
  })
}

function url(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && !URL.canParse(value)) throw new CliError(`${name} must be a URL, not "${value}"`)
  return value
}

function oneOf<const T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T))
    throw new CliError(`${name} must be ${allowed.join(' or ')}, not "${value}"`)
  return value as T
}

async function openPkcs11Vault(file: Record<string, unknown>, env: Env): Promise<OpenedVault> {
  if (file.pin !== undefined)
    throw new CliError(
      'The PKCS#11 PIN is a secret: set AGENTWALLET_PKCS11_PIN, not "pin" in the config file',
    )
  const module = setting(env.AGENTWALLET_PKCS11_MODULE, file.module)
  const tokenLabel = setting(env.AGENTWALLET_PKCS11_TOKEN_LABEL, file.tokenLabel)
  const slot = setting(env.AGENTWALLET_PKCS11_SLOT, file.slot)
  const pin = env.AGENTWALLET_PKCS11_PIN
  if (!module)
    throw new CliError('--vault pkcs11 needs the PKCS#11 library: AGENTWALLET_PKCS11_MODULE (or "module")')
  if ((tokenLabel === undefined) === (slot === undefined))
    throw new CliError(
      '--vault pkcs11 needs one of AGENTWALLET_PKCS11_TOKEN_LABEL or AGENTWALLET_PKCS11_SLOT (or "tokenLabel" / "slot")',
    )
  if (!pin) throw new CliError('--vault pkcs11 needs the token user PIN in AGENTWALLET_PKCS11_PIN')
  const sessions = integer(setting(env.AGENTWALLET_PKCS11_SESSIONS, file.sessions), 'sessions')
  const { pkcs11KeyVault } = await importPkcs11Package()
  const token = tokenLabel === undefined ? { slot: integer(slot, 'slot') as number } : { tokenLabel }
  const vault = pkcs11KeyVault({ module, pin, sessions, ...token })
  // A wrong PIN or library path is a startup error, not a server that answers 503 to every send.
  await vault.probe().catch((error: unknown) => {
    throw new CliError(`--vault pkcs11: the token cannot be used (${describe(error)})`)
  })
  return { vault, close: () => vault.close() }
}

/** The KMS SDKs are an optional install (tens of MB): a server that does not use them does not carry them. */
async function importKmsPackage<T>(kind: 'aws-kms' | 'gcp-kms', load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    throw new CliError(
      `--vault ${kind} needs the package @agentwallet/vault-kms (npm install @agentwallet/vault-kms): ${describe(error)}`,
    )
  }
}

async function importPkcs11Package(): Promise<typeof import('@agentwallet/vault-pkcs11')> {
  try {
    return await import('@agentwallet/vault-pkcs11')
  } catch (error) {
    throw new CliError(
      `--vault pkcs11 needs the package @agentwallet/vault-pkcs11 (npm install @agentwallet/vault-pkcs11): ${describe(error)}`,
    )
  }
}

function setting(fromEnv: string | undefined, fromFile: unknown): string | undefined {
  const value = fromEnv ?? fromFile
  return value === undefined || value === '' ? undefined : String(value)
}

function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new CliError(`--vault pkcs11: "${name}" must be a whole number`)
  return parsed
}

function describe(error: unknown): string {
  if (error instanceof Error && 'code' in error) return `${String(error.code)}: ${error.message}`
  return error instanceof Error ? error.message : String(error)
}
