import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import {
  type AuditLine,
  auditLines,
  auditSigner,
  defaultTenantId,
  parseMasterKey,
  rulesPolicyEngine,
  type Storage,
  sealedAuditLines,
  verifyAuditTrail,
} from '@agentwallet/core'
import { CliError } from './cliError.js'
import type { Env, ParsedArgs, ServerConfig } from './loadConfig.js'
import { openStorage } from './openStorage.js'
import type { Print } from './serve.js'

/**
 * `agentwallet audit export [--tenant t] [--out file]` writes a tenant's trail as JSON lines;
 * `agentwallet audit verify <file.jsonl>` (or, without a file, every tenant's trail in the data dir)
 * checks it offline — hashes, chain, checkpoint signatures, and every decision re-run with the rules
 * engine — printing each problem with its position, and fails when there is one.
 * @example await auditCommand(['verify', 'trail.jsonl'], values, config, env, print)
 */
export async function auditCommand(
  rest: string[],
  values: ParsedArgs['values'],
  config: ServerConfig,
  env: Env,
  print: Print,
): Promise<void> {
  const [sub, file] = rest
  if (sub === 'export') return exportTrail(config, values, env, print)
  if (sub === 'verify') return verifyTrail(file, config, values, env, print)
  throw new CliError('Usage: agentwallet audit export [--tenant <id>] [--out <file>] | verify [<file.jsonl>]')
}

async function exportTrail(
  config: ServerConfig,
  values: ParsedArgs['values'],
  env: Env,
  print: Print,
): Promise<void> {
  const key = await dataDirAuditSecret(config, env)
  const storage = await openStorage(config)
  // Sealed at export time with the data dir's audit key, as a running server's GET /audit/export is.
  const ctx = {
    storage,
    now: () => new Date(),
    newId: (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`,
    options: { audit: key ? { signer: auditSigner(key) } : undefined },
  }
  try {
    const out: NodeJS.WritableStream = values.out
      ? createWriteStream(values.out, { mode: 0o600 })
      : process.stdout
    let count = 0
    for await (const line of sealedAuditLines(ctx, values.tenant ?? defaultTenantId)) {
      if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain')
      count++
    }
    if (values.out) {
      out.end()
      await finished(out as NodeJS.WritableStream)
      print(
        `Exported ${count} audit entries to ${values.out}${key ? ', ending with a checkpoint signed now' : ' (no audit key: not sealed)'}`,
      )
    }
  } finally {
    await storage.close()
  }
}

async function verifyTrail(
  file: string | undefined,
  config: ServerConfig,
  values: ParsedArgs['values'],
  env: Env,
  print: Print,
): Promise<void> {
  const lines = file ? parseJsonLines(await readFile(file, 'utf8')) : await readDataDir(config)
  const publicKey = values['public-key'] ?? (file ? undefined : await dataDirAuditKey(config, env))
  const allowUnsignedTail = values['allow-unsigned-tail'] === true
  const result = verifyAuditTrail(lines, { engine: rulesPolicyEngine(), publicKey, allowUnsignedTail })
  for (const problem of result.problems) print(problem.message)
  // Every count says what was not checked too.
  const tail = result.keyChecked
    ? `${result.unsealed} covered by no signed checkpoint${allowUnsignedTail && result.unsealed > 0 ? ' (allowed: --allow-unsigned-tail, not vouched for)' : ''}`
    : `${result.unsealed} covered by no checkpoint; the checkpoints' key NOT checked (no --public-key)`
  print(
    `${result.ok ? 'Verified' : 'NOT verified'}: ${result.entries} entries of ${result.tenants.length} tenant(s), ` +
      `${result.checkpoints} checkpoints, ${result.decisionsRerun} decisions re-run (${result.decisionsNotRerun} not), ${tail}, ` +
      `${result.problems.length} problems; signed by ${result.publicKeys.join(', ') || 'no key'}`,
  )
  if (!result.ok) throw new CliError(`the audit trail does not verify (${result.problems.length} problems)`)
}

/** Each line parsed; one that is not JSON is kept as `null`, for the verifier to report where it is. */
function parseJsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as unknown
      } catch {
        return null
      }
    })
}

async function readDataDir(config: ServerConfig): Promise<AuditLine[]> {
  const storage: Storage = await openStorage(config)
  try {
    const tenants = new Set([defaultTenantId, ...(await storage.query('tenants')).map((tenant) => tenant.id)])
    const lines: AuditLine[] = []
    for (const tenantId of tenants) for await (const line of auditLines(storage, tenantId)) lines.push(line)
    return lines
  } finally {
    await storage.close()
  }
}

/** The public key of the data dir's audit key (env or `audit.key`), when there is one. */
async function dataDirAuditKey(config: ServerConfig, env: Env): Promise<string | undefined> {
  const secret = await dataDirAuditSecret(config, env)
  return secret && auditSigner(secret).publicKey
}

/** The data dir's audit key itself (env or `audit.key`), when there is one. */
async function dataDirAuditSecret(config: ServerConfig, env: Env): Promise<Uint8Array | undefined> {
  const fromEnv = auditKeyFromEnv(env)
  if (fromEnv) return fromEnv
  const text = await readFile(join(config.dataDir, 'audit.key'), 'utf8').catch(() => undefined)
  return text === undefined ? undefined : parseMasterKey(text)
}

/**
 * The audit key from `AGENTWALLET_AUDIT_KEY` (32 bytes, hex or base64), undefined when unset.
 * @example const key = auditKeyFromEnv(env) ?? (await loadOrCreateMasterKey({ dataDir, fileName: 'audit.key' }))
 */
export function auditKeyFromEnv(env: Env): Uint8Array | undefined {
  const value = env.AGENTWALLET_AUDIT_KEY
  return value === undefined || value.trim() === '' ? undefined : parseMasterKey(value)
}
