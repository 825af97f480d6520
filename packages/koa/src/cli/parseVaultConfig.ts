import { CliError } from './cliError.js'
import type { Env } from './loadConfig.js'

/**
 * Where wallet keys live (`--vault`): `local` (sealed with the master key, in storage), or a cloud
 * KMS with its settings. Only settings come from flags, env or the config file; KMS credentials come
 * from the env alone, read by the provider's SDK (its standard variables, profiles or instance roles).
 */
export type VaultConfig =
  | { kind: 'local' }
  | { kind: 'aws-kms'; region: string | undefined; endpoint: string | undefined }
  | {
      kind: 'gcp-kms'
      /** `projects/<p>/locations/<l>/keyRings/<r>`: the key ring new wallet keys go in. */
      keyRing: string
      protectionLevel: 'HSM' | 'SOFTWARE'
      /** `grpc` (the library's default) or `rest` (HTTP/JSON, `fallback: true`). */
      transport: 'grpc' | 'rest'
      /** Another endpoint than cloudkms.googleapis.com (a private or regional one), as a URL. */
      endpoint: string | undefined
    }

type Values = { vault?: string | undefined }

/**
 * The vault and its settings: flag over env over config file (`vault`, `awsKms`, `gcpKms`).
 * @example parseVaultConfig({ vault: 'aws-kms' }, { AGENTWALLET_AWS_KMS_REGION: 'eu-west-1' }, {})
 */
export function parseVaultConfig(values: Values, env: Env, file: Record<string, unknown>): VaultConfig {
  const kind = String(values.vault ?? env.AGENTWALLET_VAULT ?? file.vault ?? 'local')
  if (kind === 'local') return { kind }
  if (kind === 'aws-kms') {
    const settings = section(file.awsKms)
    return {
      kind,
      region: text(env.AGENTWALLET_AWS_KMS_REGION ?? settings.region),
      endpoint: url('AGENTWALLET_AWS_KMS_ENDPOINT', env.AGENTWALLET_AWS_KMS_ENDPOINT ?? settings.endpoint),
    }
  }
  if (kind === 'gcp-kms') {
    const settings = section(file.gcpKms)
    const keyRing = text(env.AGENTWALLET_GCP_KMS_KEY_RING ?? settings.keyRing)
    if (!keyRing || !/^projects\/[^/]+\/locations\/[^/]+\/keyRings\/[^/]+$/.test(keyRing))
      throw new CliError(
        '--vault gcp-kms needs AGENTWALLET_GCP_KMS_KEY_RING=projects/<project>/locations/<location>/keyRings/<ring>',
      )
    return {
      kind,
      keyRing,
      protectionLevel: oneOf(
        'AGENTWALLET_GCP_KMS_PROTECTION_LEVEL',
        env.AGENTWALLET_GCP_KMS_PROTECTION_LEVEL ?? settings.protectionLevel ?? 'HSM',
        ['HSM', 'SOFTWARE'] as const,
      ),
      transport: oneOf(
        'AGENTWALLET_GCP_KMS_TRANSPORT',
        env.AGENTWALLET_GCP_KMS_TRANSPORT ?? settings.transport ?? 'grpc',
        ['grpc', 'rest'] as const,
      ),
      endpoint: url('AGENTWALLET_GCP_KMS_ENDPOINT', env.AGENTWALLET_GCP_KMS_ENDPOINT ?? settings.endpoint),
    }
  }
  throw new CliError(`--vault must be local, aws-kms or gcp-kms, not "${kind}"`)
}

const section = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}

const text = (value: unknown): string | undefined =>
  value === undefined || value === null || value === '' ? undefined : String(value)

function url(name: string, value: unknown): string | undefined {
  const found = text(value)
  if (found !== undefined && !URL.canParse(found)) throw new CliError(`${name} must be a URL, not "${found}"`)
  return found
}

function oneOf<const T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  const found = String(value)
  if (!allowed.includes(found as T))
    throw new CliError(`${name} must be ${allowed.join(' or ')}, not "${found}"`)
  return found as T
}
