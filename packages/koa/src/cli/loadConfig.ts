import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { CliError } from './cliError.js'

export type ServerConfig = {
  port: number
  host: string
  dataDir: string
  storage: 'sqlite' | 'memory' | 'postgres'
  /** Postgres connection URL (storage `postgres`); every replica points at the same one. */
  databaseUrl: string | undefined
  /** Postgres schema of the tables (default `agentwallet`): several deployments can share a database. */
  databaseSchema: string | undefined
  /** Named RPC chains; empty means the embedded devnet. */
  chains: Record<string, string>
  logLevel: string
  adminKey: string | undefined
  /** Deliver webhooks to private/loopback addresses (refused by default: SSRF). */
  allowPrivateWebhooks: boolean
  /** Per API key, shared by replicas on Postgres: burst and sustained rate; `false` turns it off. */
  rateLimit: { capacity: number; refillPerSecond: number } | false
  /** A 0x Swap API v2 source for swaps, enabled by `AGENTWALLET_0X_API_KEY` (the key only from env). */
  zeroEx: { apiKey: string; baseUrl: string | undefined } | undefined
  /** Enables `GET /metrics` for `Authorization: Bearer <token>` (`AGENTWALLET_METRICS_TOKEN`, env only). */
  metricsToken: string | undefined
}

export type Env = Record<string, string | undefined>

const options = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  storage: { type: 'string' },
  'database-url': { type: 'string' },
  'database-schema': { type: 'string' },
  chain: { type: 'string', multiple: true },
  config: { type: 'string' },
  'log-level': { type: 'string' },
  // keys subcommand
  name: { type: 'string' },
  role: { type: 'string' },
  tenant: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

export type ParsedArgs = {
  command: string | undefined
  rest: string[]
  values: ReturnType<typeof parse>['values']
}

function parse(argv: string[]) {
  return parseArgs({ args: argv, options, allowPositionals: true, strict: true })
}

/** Splits argv into the command, its positionals and flags; unknown flags are a CliError. */
export function parseCli(argv: string[]): ParsedArgs {
  try {
    const { values, positionals } = parse(argv)
    return { command: positionals[0], rest: positionals.slice(1), values }
  } catch (error) {
    throw new CliError((error as Error).message)
  }
}

/**
 * The server's settings: flags over env (`AGENTWALLET_*`) over a JSON config file (`--config`, or
 * `<data-dir>/config.json` when present) over defaults.
 * @example const config = loadConfig(parseCli(process.argv.slice(2)).values, process.env)
 */
export function loadConfig(values: ParsedArgs['values'], env: Env): ServerConfig {
  const dataDir = resolve(values['data-dir'] ?? env.AGENTWALLET_DATA_DIR ?? './.agentwallet')
  const file = readConfigFile(values.config ?? env.AGENTWALLET_CONFIG, dataDir)
  const port = parsePort(values.port ?? env.AGENTWALLET_PORT ?? env.PORT ?? file.port ?? 8080)
  const storage = String(values.storage ?? env.AGENTWALLET_STORAGE ?? file.storage ?? 'sqlite')
  if (storage !== 'sqlite' && storage !== 'memory' && storage !== 'postgres')
    throw new CliError(`--storage must be sqlite, memory or postgres, not "${storage}"`)
  const databaseUrl = optionalString(
    values['database-url'] ?? env.AGENTWALLET_DATABASE_URL ?? file.databaseUrl,
  )
  if (storage === 'postgres' && !databaseUrl)
    throw new CliError('--storage postgres needs --database-url postgres://… (or AGENTWALLET_DATABASE_URL)')
  const chainSpecs = values.chain ?? (env.AGENTWALLET_CHAINS ? env.AGENTWALLET_CHAINS.split(',') : undefined)
  return {
    port,
    host: String(values.host ?? env.AGENTWALLET_HOST ?? file.host ?? '127.0.0.1'),
    dataDir,
    storage,
    databaseUrl,
    databaseSchema: optionalString(
      values['database-schema'] ?? env.AGENTWALLET_DATABASE_SCHEMA ?? file.databaseSchema,
    ),
    chains: chainSpecs
      ? parseChains(chainSpecs)
      : ((file.chains as Record<string, string> | undefined) ?? {}),
    logLevel: String(values['log-level'] ?? env.AGENTWALLET_LOG_LEVEL ?? file.logLevel ?? 'info'),
    adminKey: env.AGENTWALLET_ADMIN_KEY || undefined,
    allowPrivateWebhooks:
      (env.AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS ?? String(file.allowPrivateWebhooks ?? false)) === 'true',
    rateLimit: parseRateLimit(env.AGENTWALLET_RATE_LIMIT ?? file.rateLimit),
    zeroEx: env.AGENTWALLET_0X_API_KEY
      ? {
          apiKey: env.AGENTWALLET_0X_API_KEY,
          baseUrl: optionalString(env.AGENTWALLET_0X_URL ?? file.zeroExUrl),
        }
      : undefined,
    metricsToken: parseMetricsToken(env.AGENTWALLET_METRICS_TOKEN),
  }
}

/** Off when unset; a token too short to resist guessing is refused rather than served. */
function parseMetricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  if (value.length < 16 || /\s/.test(value))
    throw new CliError(
      'AGENTWALLET_METRICS_TOKEN must be 16 or more characters without spaces (e.g. $(openssl rand -hex 24))',
    )
  return value
}

/**
 * `"<burst>/<per second>"` (e.g. `"120/20"`, the default) or `"off"`.
 * @example parseRateLimit('600/100') // { capacity: 600, refillPerSecond: 100 }
 */
function parseRateLimit(value: unknown): ServerConfig['rateLimit'] {
  if (value === undefined || value === '') return { capacity: 120, refillPerSecond: 20 }
  const text = String(value).trim()
  if (text === 'off') return false
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(text)
  const [capacity, refillPerSecond] = match ? [Number(match[1]), Number(match[2])] : [0, 0]
  if (!match || capacity < 1 || refillPerSecond <= 0)
    throw new CliError(
      `AGENTWALLET_RATE_LIMIT must be "<burst>/<per second>" (e.g. "120/20") or "off", not "${text}"`,
    )
  return { capacity, refillPerSecond }
}

function optionalString(value: unknown): string | undefined {
  return value === undefined || value === '' ? undefined : String(value)
}

function readConfigFile(path: string | undefined, dataDir: string): Record<string, unknown> {
  const candidate = path ? resolve(path) : join(dataDir, 'config.json')
  if (!path && !existsSync(candidate)) return {}
  try {
    const parsed = JSON.parse(readFileSync(candidate, 'utf8')) as unknown
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not a JSON object')
    return parsed as Record<string, unknown>
  } catch (error) {
    throw new CliError(`Cannot read config file ${candidate}: ${(error as Error).message}`)
  }
}

function parsePort(value: unknown): number {
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(`Invalid port "${String(value)}" (0-65535)`)
  return port
}

/** `name=rpcUrl` pairs; the first named chain becomes the default. */
function parseChains(specs: string[]): Record<string, string> {
  const chains: Record<string, string> = {}
  for (const spec of specs) {
    const at = spec.indexOf('=')
    const name = spec.slice(0, at).trim()
    const url = spec.slice(at + 1).trim()
    if (at <= 0 || !/^[a-z0-9_-]{1,64}$/i.test(name) || !/^(https?|wss?):\/\//.test(url)) {
      throw new CliError(`--chain expects name=rpcUrl (e.g. sepolia=https://rpc.example), got "${spec}"`)
    }
    chains[name] = url
  }
  return chains
}
