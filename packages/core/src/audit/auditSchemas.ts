import * as z from 'zod/mini'

/** What an audit entry records (docs/security.md, "The audit trail"). */
export const auditKinds = [
  'policy.decision',
  'approval.resolved',
  'policy.rules_changed',
  'api_key.created',
  'api_key.revoked',
  'wallet.created',
  'wallet.imported',
  'vault.master_key_rotated',
  'vault.signature',
  'tenant.created',
  'webhook.changed',
  'screening.list_changed',
  'audit.checkpoint',
  'audit.timestamp',
] as const

export type AuditKind = (typeof auditKinds)[number]

export const listAuditSchema = z.strictObject({
  from: z.optional(z.iso.datetime({ offset: true })).check(z.describe('Entries at or after this time')),
  to: z.optional(z.iso.datetime({ offset: true })).check(z.describe('Entries before this time')),
  walletId: z.optional(z.string()).check(z.describe('Entries about this wallet')),
  approvalId: z
    .optional(z.string())
    .check(z.describe('Entries about this approval (its pause, re-judgement and resolution)')),
  kind: z.optional(z.enum(auditKinds)),
  cursor: z
    .optional(z.coerce.number().check(z.int(), z.gte(0)))
    .check(z.describe('`nextCursor` of the previous page')),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(500)), 100),
})

export const auditEntrySchema = z.object({
  seq: z.number().check(z.int()),
  v: z.literal(1),
  tenantId: z.string(),
  at: z.string(),
  kind: z.enum(auditKinds),
  subjects: z.record(z.string(), z.string()),
  payload: z.unknown(),
  hash: z.string(),
})

export const listAuditAnswerSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** Pass as `cursor` for the next page; absent at the end of the trail. */
  nextCursor: z.optional(z.number().check(z.int())),
})

export type ListAuditReturnType = z.infer<typeof listAuditAnswerSchema>
