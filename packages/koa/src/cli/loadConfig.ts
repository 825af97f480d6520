import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { assertCidrList, isAgentWalletError } from '@agentwallet/core'
import { CliError } from './cliError.js'
import { type AuditConfig, parseAuditConfig } from './parseAuditConfig.js'
import { type FeeBumping, parseFeeBumping } from './parseFeeBumping.js'

export type ServerConfig = {
  port: number
  host: string
  /**
   * The server's address as browsers and API clients reach it (`--public-url`), for the links it
   * hands out (the devnet's explorer links to the dashboard); default: from host and the bound port.
   */
  publicUrl: string | undefined
  dataDir: string
  storage: 'sqlite' | 'memory' | 'postgres'
  /** Postgres connection URL (storage `postgres`); every replica points at the same one. */
  databaseUrl: string | undefined
  /** Postgres schema of the tables (default `agentwallet`): several deployments can share a database. */
  databaseSchema: string | undefined
  /** Named RPC chains, each with one or more URLs (tried in rank order); empty means the embedded devnet. */
  chains: Record<string, string[]>
  /**
   * Address books by chain name (`--address-book name=file`, `AGENTWALLET_ADDRESS_BOOK`, `addressBooks`):
   * the JSON file `agentwallet devnet deploy` writes, giving that chain its protocol contracts.
   */
  addressBooks: Record<string, string>
  /** Chains the operator marks as development chains (`--dev-chain`): the faucet funds there. */
  devChains: string[]
  logLevel: string
  adminKey: string | undefined
  /** CIDRs of private/loopback/special-purpose addresses webhooks may target (none by default: SSRF). */
  allowPrivateWebhooks: string[]
  /** Per API key, shared by replicas on Postgres: burst and sustained rate; `false` turns it off. */
  rateLimit: { capacity: number; refillPerSecond: number } | false
  /** A 0x Swap API v2 source for swaps, enabled by `AGENTWALLET_0X_API_KEY` (the key only from env). */
  zeroEx: { apiKey: string; baseUrl: string | undefined } | undefined
  /** Blockaid's address and transaction scanning as a screening source (the key only from the environment). */
  blockaid:
    | { apiKey: string; baseUrl: string | undefined; chains: Record<number, string> | undefined }
    | undefined
  /** Enables `GET /metrics` for `Authorization: Bearer <token>` (`AGENTWALLET_METRICS_TOKEN`, env only). */
  metricsToken: string | undefined
  /** Chains `/health/ready` needs (`AGENTWALLET_READY_CHAINS`); undefined: every configured chain. */
  readyChains: string[] | undefined
  /** Seconds between the embedded devnet's blocks (`--block-time`); undefined: a block per send. */
  blockTime: number | undefined
  /** The tracker's rebroadcast and stuck-replacement delays and fee-bump cap (`parseFeeBumping`). */
  feeBumping: FeeBumping
  /**
   * Blocks after which a mined tx is final (`--finality-depth`): `all` for every chain without its
   * own, `byChain` per chain name; unset: each chain's default (64 on Ethereum, 10 on rollups, 3 on a devnet).
   */
  finalityDepth: FinalityDepthConfig
  /** Where wallet keys live (`--vault`, `AGENTWALLET_VAULT`, `vault` in the file); opened by `openVault`. */
  vault: VaultConfig
  /**
   * Each tenant's verifying paymaster per chain (`paymasters` in the config file only):
   * `{ "<tenant id>": { "<chain>": { "address": "0x…", "signer": "0x…" } } }`, `signer` a vault key.
   */
  paymasters: PaymasterConfig
  /** Checkpoints, chain anchors and timestamps of the audit trail (`parseAuditConfig`). */
  audit: AuditConfig
}

type Address = `0x${string}`
export type PaymasterConfig = Record<string, Record<string, { address: Address; signer: Address }>>

export const vaultKinds = ['local', 'pkcs11', 'aws-kms', 'gcp-kms'] as const
export type VaultKind = (typeof vaultKinds)[number]
/**
 * The vault's kind and the config file's object under that kind's name (e.g. `"pkcs11": { "module": … }`);
 * env settings (`AGENTWALLET_PKCS11_*`, …) override it in `openVault`. Secrets are read from env only.
 */
export type VaultConfig = { kind: VaultKind; file: Record<string, unknown> }

export type FinalityDepthConfig = { all: number | undefined; byChain: Record<string, number> }

export type Env = Record<string, string | undefined>

const options = {
  port: { type: 'string' },
  host: { type: 'string' },
  'public-url': { type: 'string' },
  'data-dir': { type: 'string' },
  storage: { type: 'string' },
  'database-url': { type: 'string' },
  'database-schema': { type: 'string' },
  chain: { type: 'string', multiple: true },
  'address-book': { type: 'string', multiple: true },
  'dev-chain': { type: 'string', multiple: true },
  // devnet deploy: the node to deploy onto and the key that funds it
  rpc: { type: 'string' },
  key: { type: 'string' },
  'block-time': { type: 'string' },
  // devnet subcommand: the Solana devnet instead of the EVM one
  solana: { type: 'boolean' },
  config: { type: 'string' },
  'log-level': { type: 'string' },
  'rebroadcast-after-ms': { type: 'string' },
  'replace-stuck-after-ms': { type: 'string' },
  'max-fee-bump': { type: 'string' },
  'finality-depth': { type: 'string' },
  vault: { type: 'string' },
  // keys subcommand
  name: { type: 'string' },
  role: { type: 'string' },
  tenant: { type: 'string' },
  // audit subcommand
  out: { type: 'string' },
  'public-key': { type: 'string' },
  'allow-unsigned-tail': { type: 'boolean' },
  'anchor-rpc': { type: 'string' },
  'anchor-address': { type: 'string' },
  'anchor-from-block': { type: 'string' },
  'tsa-cert': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
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
    publicUrl: parsePublicUrl(values['public-url'] ?? env.AGENTWALLET_PUBLIC_URL ?? file.publicUrl),
    dataDir,
    storage,
    databaseUrl,
    databaseSchema: optionalString(
      values['database-schema'] ?? env.AGENTWALLET_DATABASE_SCHEMA ?? file.databaseSchema,
    ),
    chains: chainSpecs ? parseChains(chainSpecs) : fileChains(file.chains),
    addressBooks: parseAddressBooks(
      values['address-book'] ?? env.AGENTWALLET_ADDRESS_BOOK?.split(',') ?? file.addressBooks,
    ),
    devChains: parseChainNames(
      '--dev-chain',
      values['dev-chain'] ?? env.AGENTWALLET_DEV_CHAINS?.split(',') ?? file.devChains,
    ),
    logLevel: parseLogLevel(values['log-level'] ?? env.AGENTWALLET_LOG_LEVEL ?? file.logLevel ?? 'info'),
    adminKey: env.AGENTWALLET_ADMIN_KEY || undefined,
    allowPrivateWebhooks: parseWebhookAllowance(
      env.AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS ?? file.allowPrivateWebhooks,
    ),
    rateLimit: parseRateLimit(env.AGENTWALLET_RATE_LIMIT ?? file.rateLimit),
    zeroEx: env.AGENTWALLET_0X_API_KEY
      ? {
          apiKey: env.AGENTWALLET_0X_API_KEY,
          baseUrl: optionalString(env.AGENTWALLET_0X_URL ?? file.zeroExUrl),
        }
      : undefined,
    blockaid: env.AGENTWALLET_BLOCKAID_API_KEY
      ? {
          apiKey: env.AGENTWALLET_BLOCKAID_API_KEY,
          baseUrl: optionalString(env.AGENTWALLET_BLOCKAID_URL ?? file.blockaidUrl),
          chains: parseBlockaidChains(env.AGENTWALLET_BLOCKAID_CHAINS ?? file.blockaidChains),
        }
      : undefined,
    metricsToken: parseMetricsToken(env.AGENTWALLET_METRICS_TOKEN),
    readyChains: parseReadyChains(env.AGENTWALLET_READY_CHAINS ?? file.readyChains),
    blockTime: parseBlockTime(values['block-time'] ?? env.AGENTWALLET_BLOCK_TIME ?? file.blockTime),
    feeBumping: parseFeeBumping(values, env, file),
    finalityDepth: parseFinalityDepth(
      values['finality-depth'] ?? env.AGENTWALLET_FINALITY_DEPTH ?? file.finalityDepth,
    ),
    vault: parseVault(values.vault ?? env.AGENTWALLET_VAULT ?? file.vault, file),
    paymasters: parsePaymasters(file.paymasters),
    audit: parseAuditConfig(env, file),
  }
}

/**
 * `name=file` pairs (flags, env split on commas) or the config file's object of name → file; each
 * file resolved against the working directory. Read when the server starts (`readAddressBook`).
 * @example parseAddressBooks(['devnet=anvil.json'], dir) // { devnet: '/…/anvil.json' }
 */
function parseAddressBooks(value: unknown): Record<string, string> {
  if (value === undefined) return {}
  const entries = Array.isArray(value)
    ? value.map(String)
    : typeof value === 'object' && value !== null
      ? Object.entries(value).map(([name, file]) => `${name}=${String(file)}`)
      : [String(value)]
  const books: Record<string, string> = {}
  for (const entry of entries.map((text) => text.trim()).filter(Boolean)) {
    const match = /^([a-z0-9_-]{1,64})=(.+)$/i.exec(entry)
    if (!match)
      throw new CliError(
        `--address-book expects name=file (e.g. devnet=./anvil-address-book.json, as agentwallet devnet deploy writes), got "${entry}"`,
      )
    books[match[1]!] = resolve(match[2]!)
  }
  return books
}

/** Chain names (flags, env split on commas, or a JSON array in the config file). */
function parseChainNames(flag: string, value: unknown): string[] {
  if (value === undefined) return []
  const names = (Array.isArray(value) ? value.map(String) : [String(value)])
    .map((name) => name.trim())
    .filter(Boolean)
  const bad = names.find((name) => !/^[a-z0-9_-]{1,64}$/i.test(name))
  if (bad !== undefined) throw new CliError(`${flag} expects chain names (e.g. devnet), got "${bad}"`)
  return names
}

/**
 * The config file's `paymasters`: tenant id → chain name → the paymaster's `address` and its
 * `signer` (a vault key's address); anything else stops the start, named.
 * @example parsePaymasters({ default: { devnet: { address: '0x…', signer: '0x…' } } })
 */
function parsePaymasters(value: unknown): PaymasterConfig {
  if (value === undefined) return {}
  const objectOf = (item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? (item as Record<string, unknown>)
      : undefined
  const tenants = objectOf(value)
  const parsed: PaymasterConfig = {}
  for (const [tenantId, chains] of Object.entries(tenants ?? { '': undefined })) {
    for (const [chain, entry] of Object.entries(objectOf(chains) ?? { '': undefined })) {
      const { address, signer } = objectOf(entry) ?? {}
      if (!isAddress(address) || !isAddress(signer))
        throw new CliError(
          'paymasters in the config file must be { "<tenant id>": { "<chain>": { "address": "0x…", "signer": "0x…" } } }',
        )
      parsed[tenantId] = { ...parsed[tenantId], [chain]: { address, signer } }
    }
  }
  return parsed
}

function isAddress(value: unknown): value is Address {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)
}

function parseVault(value: unknown, file: Record<string, unknown>): VaultConfig {
  const kind = String(value ?? 'local')
  if (!(vaultKinds as readonly string[]).includes(kind))
    throw new CliError(`--vault must be one of ${vaultKinds.join(', ')}, not "${kind}"`)
  const settings = file[kind] ?? {}
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
    throw new CliError(`"${kind}" in the config file must be an object of settings`)
  return { kind: kind as VaultKind, file: settings as Record<string, unknown> }
}

/**
 * `"<blocks>"` for every chain, `"<name>=<blocks>"` pairs per chain, or both, comma-separated (in
 * the config file also a number, or an object of chain name → blocks).
 * @example parseFinalityDepth('12,sepolia=64') // { all: 12, byChain: { sepolia: 64 } }
 */
function parseFinalityDepth(value: unknown): FinalityDepthConfig {
  const parsed: FinalityDepthConfig = { all: undefined, byChain: {} }
  if (value === undefined || value === '') return parsed
  const entries =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.entries(value).map(([name, blocks]) => `${name}=${String(blocks)}`)
      : String(value).split(',')
  for (const entry of entries.map((text) => text.trim()).filter(Boolean)) {
    const match = /^(?:([a-z0-9_-]{1,64})=)?(\d{1,6})$/i.exec(entry)
    const blocks = Number(match?.[2])
    if (!match || blocks < 1)
      throw new CliError(
        `--finality-depth must be blocks (at least 1) for every chain, or name=blocks per chain, comma-separated (e.g. "12,sepolia=64"), not "${entry}"`,
      )
    if (match[1] === undefined) parsed.all = blocks
    else parsed.byChain[match[1]] = blocks
  }
  return parsed
}

/**
 * Blockaid's chain name by chain id, beside its defaults: `id=name`, comma-separated, or an object in
 * the config file (e.g. a local fork of Ethereum: `31337=ethereum`).
 * @example parseBlockaidChains('31337=ethereum') // { 31337: 'ethereum' }
 */
function parseBlockaidChains(value: unknown): Record<number, string> | undefined {
  if (value === undefined || value === '') return undefined
  const entries =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.entries(value).map(([id, name]) => `${id}=${String(name)}`)
      : String(value).split(',')
  const chains: Record<number, string> = {}
  for (const entry of entries.map((text) => text.trim()).filter(Boolean)) {
    const match = /^(\d{1,12})=([a-z0-9-]{1,64})$/.exec(entry)
    if (!match)
      throw new CliError(
        `AGENTWALLET_BLOCKAID_CHAINS expects chainId=blockaid-chain, comma-separated (e.g. "31337=ethereum"), not "${entry}"`,
      )
    chains[Number(match[1])] = match[2]!
  }
  return chains
}

/**
 * An absolute http(s) URL with no query or fragment; a trailing slash is dropped.
 * @example parsePublicUrl('https://wallet.example.com/') // 'https://wallet.example.com'
 */
function parsePublicUrl(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined
  let url: URL | undefined
  try {
    url = new URL(String(value))
  } catch {
    url = undefined
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password)
    throw new CliError(
      `--public-url must be an absolute http(s) URL without query, fragment or credentials (e.g. https://wallet.example.com), not "${String(value)}"`,
    )
  return url.href.replace(/\/+$/, '')
}

/**
 * Chain names, comma-separated (or a JSON array in the config file); `none` for storage only. Names
 * are checked against the configured chains when the server starts.
 * @example parseReadyChains('mainnet,base') // ['mainnet', 'base']
 */
function parseReadyChains(value: unknown): string[] | undefined {
  if (value === undefined || value === '') return undefined
  if (value === 'none') return []
  const names = (Array.isArray(value) ? value.map(String) : String(value).split(','))
    .map((name) => name.trim())
    .filter(Boolean)
  if (names.length === 0 || names.some((name) => !/^[a-z0-9_-]{1,64}$/i.test(name)))
    throw new CliError(
      `AGENTWALLET_READY_CHAINS must be chain names, comma-separated (e.g. "mainnet,base"), or "none", not "${String(value)}"`,
    )
  return names
}

/**
 * A comma-separated list of CIDRs (or a JSON array of them in the config file). The old `true`
 * ("allow every private address") is refused, so an operator who set it learns the new form instead
 * of silently keeping, or silently losing, private targets.
 * @example parseWebhookAllowance('127.0.0.0/8,::1/128') // ['127.0.0.0/8', '::1/128']
 */
function parseWebhookAllowance(value: unknown): string[] {
  const form = 'a comma-separated list of CIDRs, e.g. AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS=127.0.0.0/8,::1/128'
  if (value === undefined || value === '' || value === false || value === 'false') return []
  if (value === true || value === 'true')
    throw new CliError(
      `AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS no longer takes "true": name the ranges webhooks may reach, as ${form}`,
    )
  const cidrs = (Array.isArray(value) ? value.map(String) : String(value).split(','))
    .map((cidr) => cidr.trim())
    .filter(Boolean)
  try {
    return [...assertCidrList(cidrs)]
  } catch (error) {
    if (!isAgentWalletError(error)) throw error
    throw new CliError(`AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS must be ${form}: ${error.shortMessage}`)
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

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** One of pino's levels, checked here, before any command touches the disk. */
function parseLogLevel(value: unknown): string {
  const level = String(value)
  if (!logLevels.includes(level))
    throw new CliError(`--log-level must be one of ${logLevels.join(', ')}, not "${level}"`)
  return level
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

/** Seconds between blocks, fractions allowed (`0.5`); absent: the devnet mines a block per send. */
function parseBlockTime(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3_600)
    throw new CliError(`--block-time expects seconds between blocks (e.g. 2 or 0.5), got "${String(value)}"`)
  return seconds
}

function parsePort(value: unknown): number {
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(`Invalid port "${String(value)}" (0-65535)`)
  return port
}

const rpcUrlPattern = /^(https?|wss?):\/\//

/**
 * `name=url[,url…]` specs; the first named chain becomes the default. A spec that is only a URL adds
 * it to the chain before it, so `AGENTWALLET_CHAINS=mainnet=https://a,https://b,base=https://c`
 * (split on commas) gives mainnet two URLs.
 */
function parseChains(specs: string[]): Record<string, string[]> {
  const chains: Record<string, string[]> = {}
  let last: string[] | undefined
  for (const spec of specs.flatMap(splitUrls)) {
    if (rpcUrlPattern.test(spec) && last) {
      last.push(spec)
      continue
    }
    const at = spec.indexOf('=')
    const name = spec.slice(0, at).trim()
    const url = spec.slice(at + 1).trim()
    if (at <= 0 || !/^[a-z0-9_-]{1,64}$/i.test(name) || !rpcUrlPattern.test(url)) {
      throw new CliError(
        `--chain expects name=rpcUrl[,rpcUrl…] (e.g. sepolia=https://rpc.example,https://backup.example), got "${spec}"`,
      )
    }
    last = [url]
    chains[name] = last
  }
  return chains
}

/** `a=https://x,https://y` → `a=https://x`, `https://y`: a comma starts another URL only before a scheme. */
function splitUrls(spec: string): string[] {
  return spec
    .split(/,(?=\s*(?:https?|wss?):\/\/)/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
}

/** The config file's `chains`: each a URL or a list of URLs. */
function fileChains(value: unknown): Record<string, string[]> {
  if (value === undefined) return {}
  const specs = Object.entries(value as Record<string, unknown>).flatMap(([name, urls]) => {
    const list = Array.isArray(urls) ? urls : [urls]
    return list.map((url, index) => (index === 0 ? `${name}=${String(url)}` : String(url)))
  })
  return parseChains(specs)
}
