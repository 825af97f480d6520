import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { createReadStream, createWriteStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { finished } from 'node:stream/promises'
import {
  type AuditLine,
  type AuditVerification,
  auditLines,
  auditSigner,
  defaultTenantId,
  type ExternalAnchor,
  parseMasterKey,
  readChainAnchors,
  rulesPolicyEngine,
  type Storage,
  sealedAuditLines,
  type VerifyAuditOptions,
  verifyAuditStream,
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
  const publicKey = values['public-key'] ?? (file ? undefined : await dataDirAuditKey(config, env))
  const allowUnsignedTail = values['allow-unsigned-tail'] === true
  const anchors = await chainAnchors(values)
  const options = {
    engine: rulesPolicyEngine(),
    publicKey,
    allowUnsignedTail,
    anchors: anchors?.found,
    timestampCertificates: await timestampCertificates(values['tsa-cert']),
  }
  // Read as a stream, line by line or page by page: the verifier keeps only what it needs.
  const result = file
    ? await verifyAuditStream(readJsonLines(file), options)
    : await verifyDataDir(config, options)
  for (const problem of result.problems) print(problem.message)
  // Every count says what was not checked too.
  const tail = result.keyChecked
    ? `${result.unsealed} covered by no signed checkpoint${allowUnsignedTail && result.unsealed > 0 ? ' (allowed: --allow-unsigned-tail, not vouched for)' : ''}`
    : `${result.unsealed} covered by no checkpoint; the checkpoints' key NOT checked (no --public-key)`
  const anchored = anchors
    ? `; ${result.anchorsChecked} chain anchors of ${anchors.address} checked (${anchors.found.length - result.anchorsChecked} of other tenants)`
    : '; no chain anchors checked (no --anchor-rpc)'
  const stamped = `; ${result.timestampsChecked} timestamp tokens checked${values['tsa-cert'] ? ' against --tsa-cert' : ' (their authority NOT pinned: no --tsa-cert)'}`
  print(
    `${result.ok ? 'Verified' : 'NOT verified'}: ${result.entries} entries of ${result.tenants.length} tenant(s), ` +
      `${result.checkpoints} checkpoints, ${result.decisionsRerun} decisions re-run (${result.decisionsNotRerun} not), ${tail}, ` +
      `${result.problems.length} problems; signed by ${result.publicKeys.join(', ') || 'no key'}${anchored}${stamped}`,
  )
  if (!result.ok) throw new CliError(`the audit trail does not verify (${result.problems.length} problems)`)
}

/** The anchors `--anchor-address` published on the chain at `--anchor-rpc`, when both are given. */
async function chainAnchors(
  values: ParsedArgs['values'],
): Promise<{ address: string; found: ExternalAnchor[] } | undefined> {
  const rpc = values['anchor-rpc']
  const address = values['anchor-address']
  if (rpc === undefined && address === undefined) return undefined
  if (!rpc || !address || !/^0x[0-9a-fA-F]{40}$/.test(address))
    throw new CliError(
      '--anchor-rpc <url> needs --anchor-address <0x…> (the anchor account), and the reverse',
    )
  const fromBlock = values['anchor-from-block']
  if (fromBlock !== undefined && !/^\d+$/.test(fromBlock))
    throw new CliError(`--anchor-from-block must be a block number, not "${fromBlock}"`)
  const found = await readChainAnchors({
    rpc,
    address: address as `0x${string}`,
    fromBlock: fromBlock === undefined ? undefined : BigInt(fromBlock),
  }).catch((error: unknown) => {
    throw new CliError(`could not read the anchors from --anchor-rpc: ${(error as Error).name}`)
  })
  return {
    address,
    found: found.map((anchor) => ({
      ...anchor,
      source: `tx ${anchor.transactionHash} (block ${anchor.blockNumber}, ${anchor.confirmations} confirmations)`,
    })),
  }
}

/** Each line of the file parsed, read one at a time; one that is not JSON is `null`, for the verifier to report where it is. */
async function* readJsonLines(file: string): AsyncGenerator<unknown> {
  const lines = createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  })
  for await (const line of lines) {
    if (line.trim() === '') continue
    try {
      yield JSON.parse(line) as unknown
    } catch {
      yield null
    }
  }
}

async function verifyDataDir(config: ServerConfig, options: VerifyAuditOptions): Promise<AuditVerification> {
  const storage: Storage = await openStorage(config)
  try {
    const tenants = new Set([defaultTenantId, ...(await storage.query('tenants')).map((tenant) => tenant.id)])
    return await verifyAuditStream(everyTrail(storage, tenants), options)
  } finally {
    await storage.close()
  }
}

async function* everyTrail(storage: Storage, tenants: Iterable<string>): AsyncGenerator<AuditLine> {
  for (const tenantId of tenants) yield* auditLines(storage, tenantId)
}

/** The timestamp authority's certificates `--tsa-cert` names (PEM or DER), pinned. */
async function timestampCertificates(file: string | undefined): Promise<Uint8Array[] | undefined> {
  if (file === undefined) return undefined
  const bytes = await readFile(file).catch(() => {
    throw new CliError(`--tsa-cert: cannot read ${file}`)
  })
  const pem = bytes.toString('latin1')
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) return [new Uint8Array(bytes)]
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/g)].map(
    (match) => new Uint8Array(Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64')),
  )
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
