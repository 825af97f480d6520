import type { AuditKind } from './auditSchemas.js'
import type { RecordedSpends } from './recordedSpends.js'

/** The records an entry is about, to filter by. */
export type AuditSubjects = {
  walletId?: string | undefined
  transactionId?: string | undefined
  approvalId?: string | undefined
  apiKeyId?: string | undefined
  /** The vault key (an address) a signature or a wallet is made with. */
  keyId?: string | undefined
}

/** What a caller appends: the kind, the records it is about, and its JSON payload (no secrets). */
export type AuditInput = { kind: AuditKind; subjects?: AuditSubjects | undefined; payload: unknown }

/** An entry as hashed and stored (event data on the tenant's audit stream). */
export type AuditBody = {
  v: 1
  tenantId: string
  at: string
  kind: AuditKind
  subjects: AuditSubjects
  payload: unknown
}

/** `hash`: sha256 of the body's canonical JSON. */
export type StoredAuditEntry = AuditBody & { hash: string }

/**
 * An entry as read or exported: its position in the tenant's chain (`seq`, from 1, assigned at
 * commit in commit order), the chain value before it (`prevHash`) and through it (`chainHash`).
 */
export type AuditLine = StoredAuditEntry & { seq: number; prevHash: string; chainHash: string }

/** The payload of a checkpoint: the chain value through entry `upto`, signed with the audit key. */
export type CheckpointPayload = { upto: number; head: string; publicKey: string; signature: string }

/**
 * The payload of a policy decision: enough to re-run the pure engine offline. The counted spends
 * (`recent` of the engine's context) are in `recent`, as changes from an earlier decision's list
 * (`RecordedSpends`); an entry written before that form holds them whole in `context.recent`.
 */
export type DecisionPayload = {
  engine: string
  /** The intent as the engine saw it, in audit JSON (bigints tagged). */
  intent: unknown
  /** The engine's context but its counted spends: `now` as ISO, rules, isNewRecipient, venues (audit JSON). */
  context: unknown
  recent?: RecordedSpends | undefined
  decision: { decision: string; ruleId?: string | undefined; reason: string }
}
