import type { DecisionEngine } from './rerunDecision.js'

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
  | 'anchor_mismatch'
  | 'anchor_beyond'
  | 'timestamp_head'
  | 'timestamp_invalid'

/** One entry that does not verify: its position in the input (from 1), its seq and what is wrong. */
export type AuditProblem = {
  position: number
  seq: number | undefined
  tenantId: string | undefined
  code: AuditProblemCode
  message: string
}

/**
 * A head published outside the server (an anchor transaction, an RFC 3161 token): the tenant's
 * chain value through `upto` must be `head`, and the trail must reach `upto`. `source` names it in messages.
 */
export type ExternalAnchor = { tenantTag: string; upto: number; head: string; source: string }

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
  /** External anchors of the trail's tenants checked against it (`anchors`); those of other tenants are not counted. */
  anchorsChecked: number
  /** The highest anchored seq checked, per tenant: the trail is proven to reach at least that far. */
  anchoredUpto: Record<string, number>
  /** RFC 3161 tokens (`audit.timestamp` entries) checked: each names its head and its signature verifies. */
  timestampsChecked: number
  /** Tokens whose signature was not checked: `verifyAuditTrail` is synchronous (`verifyAuditStream` checks them). */
  timestampsNotChecked: number
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
  /** Heads published outside the server (`readChainAnchors`): each must be in the trail. */
  anchors?: readonly ExternalAnchor[] | undefined
  /** The timestamp authority's certificates (DER), pinned: a token signed by another is a problem. */
  timestampCertificates?: readonly Uint8Array[] | undefined
}
