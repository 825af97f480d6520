import { anchorTenantTag } from './auditAnchorData.js'
import { checkpointMessage, genesisHash, hashAuditBody, nextChainHash } from './auditHashes.js'
import { verifyAuditSignature } from './auditSigner.js'
import type { TimestampPayload } from './auditTimestamps.js'
import { countedSpends, rerunDecision } from './rerunDecision.js'
import type { AuditBody, CheckpointPayload, DecisionPayload } from './types.js'
import type {
  AuditProblem,
  AuditProblemCode,
  AuditVerification,
  ExternalAnchor,
  VerifyAuditOptions,
} from './verificationTypes.js'

/** How many of its latest chain values a tenant's chain keeps for its checkpoints to name. */
const recentHeads = 4096
/** How many of a wallet's latest decisions keep their counted spends for a later one to name. */
const recentDecisions = 256

type TenantChain = {
  seq: number
  chainHash: string
  /** The chain values of the latest `recentHeads` seqs (a checkpoint names its head right after it). */
  recent: Map<number, string>
  /** The last seq a verified checkpoint covers (its own entry too when it covers exactly all before it). */
  sealedUpto: number
  /** Each verified checkpoint's `upto`: a checkpoint appears once. */
  checkpointed: Set<number>
  /** The latest decisions' counted spends, by entry hash, and each wallet's latest decisions' hashes. */
  spends: Map<string, unknown[]>
  decisionsOf: Map<string, string[]>
  /** The anchors of this tenant, by the seq they name. */
  anchors: Map<number, ExternalAnchor[]>
}

/**
 * A timestamp entry whose token is still to check (asynchronously: `checkTimestamp`), with what
 * `timestampChecked` needs to report it.
 */
export type PendingTimestamp = { position: number; seq: number; tenantId: string; payload: TimestampPayload }

/**
 * A verifier fed one line at a time: `add` each in order (it answers a timestamp entry's token to
 * check, which `timestampChecked` then reports), then `finish` for the summary.
 */
export type AuditVerifier = {
  add(raw: unknown): PendingTimestamp | undefined
  timestampChecked(pending: PendingTimestamp, error: string | undefined): void
  finish(): AuditVerification
}

/**
 * A verifier of a trail read as a stream: its memory holds, per tenant, the latest chain values and
 * decisions (not every entry), so a million-entry export verifies in bounded memory. The checks are
 * `verifyAuditTrail`'s.
 * @example const verifier = auditVerifier({ engine }); for await (const line of lines) verifier.add(line)
 */
export function auditVerifier(options: VerifyAuditOptions = {}): AuditVerifier {
  const problems: AuditProblem[] = []
  const chains = new Map<string, TenantChain>()
  const keys = new Set<string>()
  const anchorsByTag = groupAnchors(options.anchors ?? [])
  let checkpoints = 0
  let decisionsRerun = 0
  let decisionsNotRerun = 0
  let position = 0
  let timestampsChecked = 0
  let timestampsNotChecked = 0
  const chainOf = (tenantId: string): TenantChain => {
    const existing = chains.get(tenantId)
    if (existing) return existing
    const chain: TenantChain = {
      seq: 0,
      chainHash: genesisHash,
      recent: new Map(),
      sealedUpto: 0,
      checkpointed: new Set(),
      spends: new Map(),
      decisionsOf: new Map(),
      anchors: anchorsByTag.get(anchorTenantTag(tenantId)) ?? new Map(),
    }
    chains.set(tenantId, chain)
    return chain
  }

  const add = (raw: unknown): PendingTimestamp | undefined => {
    position += 1
    const failures = problems.length
    const line = raw as Partial<AuditBody & { seq: number; hash: string; prevHash: string }>
    const problem = (code: AuditProblemCode, message: string): void => {
      problems.push({
        position,
        seq: line?.seq,
        tenantId: line?.tenantId,
        code,
        message: `entry ${position}: ${message}`,
      })
    }
    if (!isLine(line)) {
      problem('malformed', 'not an audit entry')
      return undefined
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
    const chain = chainOf(body.tenantId)
    if (hashAuditBody(body) !== hash)
      problem('hash_mismatch', `seq ${seq}: its content does not match its hash (changed)`)
    if (seq > chain.seq + 1)
      problem('seq_gap', `seq ${seq} follows ${chain.seq}: ${seq - chain.seq - 1} missing`)
    if (seq <= chain.seq) problem('seq_order', `seq ${seq} after ${chain.seq}: out of order or repeated`)
    if (line.prevHash !== undefined && line.prevHash !== chain.chainHash)
      problem('chain_broken', `seq ${seq}: its prevHash is not the chain value before it`)
    chain.chainHash = nextChainHash(chain.chainHash, hash)
    chain.seq = Math.max(chain.seq, seq)
    chain.recent.set(seq, chain.chainHash)
    chain.recent.delete(seq - recentHeads)
    for (const anchor of chain.anchors.get(seq) ?? [])
      if (anchor.head !== chain.chainHash)
        problem(
          'anchor_mismatch',
          `seq ${seq}: the chain through it differs from the head anchored in ${anchor.source}`,
        )
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
      // A checkpoint is signed right after the head it names is read: one naming a head older than
      // the chain values kept is as unverifiable as a wrong one.
      if (chain.recent.get(upto) !== head)
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
    if (body.kind === 'audit.timestamp') {
      const payload = body.payload as TimestampPayload
      timestampsNotChecked += 1
      // Recorded right after the checkpoint whose head it timestamps: within the chain values kept.
      if (chain.recent.get(payload?.upto) !== payload?.head) {
        problem(
          'timestamp_head',
          `seq ${seq}: the chain through seq ${payload?.upto} is not the head it timestamps`,
        )
        return undefined
      }
      return { position, seq, tenantId: body.tenantId, payload }
    }
    if (body.kind !== 'policy.decision') return undefined
    const payload = body.payload as DecisionPayload
    const recent = countedSpends(payload, chain.spends)
    if ('error' in recent) {
      problem('decision_error', `seq ${seq}: its counted spends ${recent.error}`)
      return undefined
    }
    keepSpends(chain, body.subjects?.walletId ?? '', hash, recent.spends)
    if (!options.engine) {
      decisionsNotRerun += 1
      return undefined
    }
    const rerun = rerunDecision(options.engine, payload, recent.spends)
    if (rerun === undefined) {
      problem(
        'decision_engine',
        `seq ${seq}: made by engine "${String(payload.engine)}", which this verifier cannot re-run (it has "${options.engine.name}")`,
      )
      return undefined
    }
    decisionsRerun += 1
    if ('error' in rerun)
      problem('decision_error', `seq ${seq}: the engine could not re-run it (${rerun.error})`)
    else if (rerun.mismatch) problem('decision_mismatch', `seq ${seq}: ${rerun.mismatch}`)
    return undefined
  }

  const timestampChecked = (pending: PendingTimestamp, error: string | undefined): void => {
    timestampsNotChecked -= 1
    timestampsChecked += 1
    if (error !== undefined)
      problems.push({
        position: pending.position,
        seq: pending.seq,
        tenantId: pending.tenantId,
        code: 'timestamp_invalid',
        message: `entry ${pending.position}: seq ${pending.seq}: its timestamp token ${error}`,
      })
  }

  const finish = (): AuditVerification => {
    let unsealed = 0
    let anchorsChecked = 0
    const anchoredUpto: Record<string, number> = {}
    for (const [tenantId, chain] of chains) {
      const uncovered = chain.seq - chain.sealedUpto
      unsealed += uncovered
      if (uncovered > 0 && options.publicKey !== undefined && !options.allowUnsignedTail)
        problems.push({
          position,
          seq: chain.seq,
          tenantId,
          code: 'unsealed',
          message: `tenant ${tenantId}: seq ${chain.sealedUpto + 1}–${chain.seq} (${uncovered} entries) are covered by no checkpoint signed with the audit key`,
        })
      for (const [upto, anchors] of chain.anchors) {
        anchorsChecked += anchors.length
        anchoredUpto[tenantId] = Math.max(anchoredUpto[tenantId] ?? 0, upto)
        if (upto > chain.seq)
          for (const anchor of anchors)
            problems.push({
              position,
              seq: chain.seq,
              tenantId,
              code: 'anchor_beyond',
              message: `tenant ${tenantId}: the trail stops at seq ${chain.seq}, short of seq ${upto} anchored in ${anchor.source} (cut or withheld)`,
            })
      }
    }
    return {
      ok: problems.length === 0,
      entries: position,
      tenants: [...chains.keys()],
      checkpoints,
      decisionsRerun,
      decisionsNotRerun,
      unsealed,
      keyChecked: options.publicKey !== undefined,
      publicKeys: [...keys],
      anchorsChecked,
      anchoredUpto,
      timestampsChecked,
      timestampsNotChecked,
      problems,
    }
  }
  return { add, timestampChecked, finish }
}

function groupAnchors(anchors: readonly ExternalAnchor[]): Map<string, Map<number, ExternalAnchor[]>> {
  const byTag = new Map<string, Map<number, ExternalAnchor[]>>()
  for (const anchor of anchors) {
    const bySeq = byTag.get(anchor.tenantTag) ?? new Map<number, ExternalAnchor[]>()
    byTag.set(anchor.tenantTag, bySeq)
    bySeq.set(anchor.upto, [...(bySeq.get(anchor.upto) ?? []), anchor])
  }
  return byTag
}

/** Keeps a decision's counted spends for a later one to name, forgetting its wallet's oldest past `recentDecisions`. */
function keepSpends(chain: TenantChain, walletId: string, hash: string, spends: unknown[]): void {
  chain.spends.set(hash, spends)
  const latest = chain.decisionsOf.get(walletId) ?? []
  chain.decisionsOf.set(walletId, latest)
  latest.push(hash)
  if (latest.length > recentDecisions) chain.spends.delete(latest.shift()!)
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
