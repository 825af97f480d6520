import { checkpointMessage, genesisHash, hashAuditBody, nextChainHash } from './auditHashes.js'
import { fromAuditJson } from './auditJson.js'
import { verifyAuditSignature } from './auditSigner.js'
import { resolveRecordedSpends } from './recordedSpends.js'
import type { AuditBody, CheckpointPayload, DecisionPayload } from './types.js'

/** The pure engine to re-run decisions with (core's rules engine is one: `rulesPolicyEngine()`). */
export type DecisionEngine = {
  name: string
  evaluate(intent: never, context: never): { decision: string; ruleId?: string | undefined }
}

export type AuditProblemCode =
  | 'malformed'
  | 'hash_mismatch'
  | 'seq_gap'
  | 'seq_order'
  | 'chain_broken'
  | 'checkpoint_signature'
  | 'checkpoint_head'
  | 'checkpoint_key'
  | 'checkpoint_coverage'
  | 'checkpoint_repeated'
  | 'unsealed'
  | 'decision_mismatch'
  | 'decision_error'
  | 'decision_engine'

/** One entry that does not verify: its position in the input (from 1), its seq and what is wrong. */
export type AuditProblem = {
  position: number
  seq: number | undefined
  tenantId: string | undefined
  code: AuditProblemCode
  message: string
}

export type AuditVerification = {
  ok: boolean
  entries: number
  tenants: string[]
  checkpoints: number
  /** Decisions re-run with the engine. */
  decisionsRerun: number
  /** Decisions not re-run: no engine was given (with one, a decision it cannot re-run is a problem). */
  decisionsNotRerun: number
  /**
   * Entries no verified checkpoint covers (after their tenant's last one): chained, but no signature
   * vouches for them. With `publicKey`, each is a problem unless `allowUnsignedTail`.
   */
  unsealed: number
  /** Whether the checkpoints' key was checked against the one given (`publicKey`). */
  keyChecked: boolean
  /** The audit keys the checkpoints were signed with. */
  publicKeys: string[]
  problems: AuditProblem[]
}

export type VerifyAuditOptions = {
  engine?: DecisionEngine | undefined
  /**
   * The audit key the operator publishes (/health): a checkpoint signed by any other is a problem,
   * and so is every entry no checkpoint signed with it covers (fail closed), unless `allowUnsignedTail`.
   */
  publicKey?: string | undefined
  /** With `publicKey`: entries after the last signed checkpoint are counted (`unsealed`), not problems. */
  allowUnsignedTail?: boolean | undefined
}

type TenantChain = {
  seq: number
  chainHash: string
  bySeq: Map<number, string>
  /** The last seq a verified checkpoint covers (its own entry too when it covers exactly all before it). */
  sealedUpto: number
  /** Each verified checkpoint's `upto`: a checkpoint appears once. */
  checkpointed: Set<number>
  /** Each decision's counted spends, by its entry's hash: what a later decision's `after` names. */
  spends: Map<string, unknown[]>
}

/**
 * Checks an exported trail with no server, chain or network: each entry's hash, each tenant's seqs
 * (from 1, none missing, in order) and chain values, each checkpoint's signature and the chain value
 * it signs, and re-runs each recorded policy decision with `engine` from its recorded inputs. A
 * checkpoint must cover entries before it only, each checkpoint once (a copy of an old one is a
 * problem); with `publicKey`, an entry no checkpoint signed with that key
 * covers is a problem (fail closed) unless `allowUnsignedTail`. A decision `engine` cannot re-run
 * (another engine's name) is a problem, never a skip.
 * @example const { ok, problems } = verifyAuditTrail(lines, { engine: rulesPolicyEngine() })
 */
export function verifyAuditTrail(
  lines: readonly unknown[],
  options: VerifyAuditOptions = {},
): AuditVerification {
  const problems: AuditProblem[] = []
  const chains = new Map<string, TenantChain>()
  const keys = new Set<string>()
  let checkpoints = 0
  let decisionsRerun = 0
  let decisionsNotRerun = 0
  for (const [index, raw] of lines.entries()) {
    const position = index + 1
    const failures = problems.length
    const line = raw as Partial<AuditBody & { seq: number; hash: string; prevHash: string }>
    const problem = (code: AuditProblemCode, message: string): void => {
      problems.push({
        position,
        seq: line.seq,
        tenantId: line.tenantId,
        code,
        message: `entry ${position}: ${message}`,
      })
    }
    if (!isLine(line)) {
      problem('malformed', 'not an audit entry')
      continue
    }
    const {
      seq,
      hash,
      prevHash: _prev,
      chainHash: _chain,
      ...body
    } = line as AuditBody & {
      seq: number
      hash: string
      prevHash?: string
      chainHash?: string
    }
    const chain = chains.get(body.tenantId) ?? {
      seq: 0,
      chainHash: genesisHash,
      bySeq: new Map<number, string>(),
      sealedUpto: 0,
      checkpointed: new Set<number>(),
      spends: new Map<string, unknown[]>(),
    }
    chains.set(body.tenantId, chain)
    if (hashAuditBody(body) !== hash)
      problem('hash_mismatch', `seq ${seq}: its content does not match its hash (changed)`)
    if (seq > chain.seq + 1)
      problem('seq_gap', `seq ${seq} follows ${chain.seq}: ${seq - chain.seq - 1} missing`)
    if (seq <= chain.seq) problem('seq_order', `seq ${seq} after ${chain.seq}: out of order or repeated`)
    if (line.prevHash !== undefined && line.prevHash !== chain.chainHash)
      problem('chain_broken', `seq ${seq}: its prevHash is not the chain value before it`)
    chain.chainHash = nextChainHash(chain.chainHash, hash)
    chain.seq = Math.max(chain.seq, seq)
    chain.bySeq.set(seq, chain.chainHash)
    if (body.kind === 'audit.checkpoint') {
      checkpoints += 1
      const { upto, head, publicKey, signature } = body.payload as CheckpointPayload
      keys.add(publicKey)
      if (!verifyAuditSignature(publicKey, checkpointMessage(body.tenantId, upto, head), signature))
        problem('checkpoint_signature', `checkpoint at seq ${seq}: its signature does not verify`)
      else if (options.publicKey !== undefined && publicKey !== options.publicKey)
        problem('checkpoint_key', `checkpoint at seq ${seq}: signed by ${publicKey}, not the audit key given`)
      if (!Number.isSafeInteger(upto) || upto >= seq || upto < 1)
        problem(
          'checkpoint_coverage',
          `checkpoint at seq ${seq}: it names seq ${upto}, not entries before it`,
        )
      else if (chain.checkpointed.has(upto))
        problem(
          'checkpoint_repeated',
          `checkpoint at seq ${seq}: a checkpoint through seq ${upto} appeared before`,
        )
      if (chain.bySeq.get(upto) !== head)
        problem(
          'checkpoint_head',
          `checkpoint at seq ${seq}: the chain through seq ${upto} is not the one it signed`,
        )
      if (problems.length === failures) {
        chain.checkpointed.add(upto)
        // Exactly over every entry before it: its own entry is vouched for by its signature too. A
        // replica's checkpoint over an older head, committed after another's, vouches for nothing new.
        chain.sealedUpto = Math.max(chain.sealedUpto, upto === seq - 1 ? seq : upto)
      }
    }
    if (body.kind === 'policy.decision') {
      const payload = body.payload as DecisionPayload
      const recent = countedSpends(payload, chain.spends)
      if ('error' in recent) {
        problem('decision_error', `seq ${seq}: its counted spends ${recent.error}`)
        continue
      }
      chain.spends.set(hash, recent.spends)
      if (!options.engine) {
        decisionsNotRerun += 1
        continue
      }
      const rerun = rerunDecision(options.engine, payload, recent.spends)
      if (rerun === undefined) {
        problem(
          'decision_engine',
          `seq ${seq}: made by engine "${String(payload.engine)}", which this verifier cannot re-run (it has "${options.engine.name}")`,
        )
        continue
      }
      decisionsRerun += 1
      if ('error' in rerun)
        problem('decision_error', `seq ${seq}: the engine could not re-run it (${rerun.error})`)
      else if (rerun.mismatch) problem('decision_mismatch', `seq ${seq}: ${rerun.mismatch}`)
    }
  }
  let unsealed = 0
  for (const [tenantId, chain] of chains) {
    const uncovered = chain.seq - chain.sealedUpto
    unsealed += uncovered
    if (uncovered > 0 && options.publicKey !== undefined && !options.allowUnsignedTail)
      problems.push({
        position: lines.length,
        seq: chain.seq,
        tenantId,
        code: 'unsealed',
        message: `tenant ${tenantId}: seq ${chain.sealedUpto + 1}–${chain.seq} (${uncovered} entries) are covered by no checkpoint signed with the audit key`,
      })
  }
  return {
    ok: problems.length === 0,
    entries: lines.length,
    tenants: [...chains.keys()],
    checkpoints,
    decisionsRerun,
    decisionsNotRerun,
    unsealed,
    keyChecked: options.publicKey !== undefined,
    publicKeys: [...keys],
    problems,
  }
}

function isLine(line: Partial<AuditBody & { seq: number; hash: string }>): boolean {
  return (
    typeof line === 'object' &&
    line !== null &&
    Number.isSafeInteger(line.seq) &&
    typeof line.hash === 'string' &&
    typeof line.tenantId === 'string' &&
    typeof line.kind === 'string' &&
    typeof line.at === 'string'
  )
}

/**
 * The spends a decision counted (audit JSON): rebuilt from the earlier decision its `recent` names,
 * or, in an entry written before that form, its `context.recent` as is.
 */
function countedSpends(
  payload: DecisionPayload,
  earlier: ReadonlyMap<string, unknown[]>,
): { spends: unknown[] } | { error: string } {
  const recorded = payload?.recent
  if (recorded === undefined) {
    const recent = (payload?.context as { recent?: unknown } | undefined)?.recent
    return { spends: Array.isArray(recent) ? recent : [] }
  }
  if (!Array.isArray(recorded.add)) return { error: 'are malformed' }
  const base = recorded.after === undefined ? [] : earlier.get(recorded.after)
  if (base === undefined)
    return { error: `name entry ${recorded.after}, which is not an earlier decision of this tenant` }
  try {
    return { spends: resolveRecordedSpends(recorded, base) }
  } catch (error) {
    return { error: `do not apply to the list they name (${(error as Error).message})` }
  }
}

function rerunDecision(
  engine: DecisionEngine,
  payload: DecisionPayload,
  recent: unknown[],
): { mismatch?: string | undefined } | { error: string } | undefined {
  if (payload.engine !== engine.name) return undefined
  try {
    const context = fromAuditJson({ ...(payload.context as object), recent }) as { now: string }
    const intent = fromAuditJson(payload.intent)
    const result = engine.evaluate(intent as never, { ...context, now: new Date(context.now) } as never)
    const recorded = payload.decision
    if (result.decision !== recorded.decision)
      return { mismatch: `recorded ${recorded.decision}, rules give ${result.decision}` }
    if ((result.ruleId ?? null) !== (recorded.ruleId ?? null))
      return { mismatch: `recorded rule ${recorded.ruleId ?? 'none'}, rules give ${result.ruleId ?? 'none'}` }
    return {}
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}
