import * as z from 'zod'

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
  'audit.checkpoint',
] as const

export type AuditKind = (typeof auditKinds)[number]

export const listAuditSchema = z.strictObject({
  from: z.iso.datetime({ offset: true }).optional().describe('Entries at or after this time'),
  to: z.iso.datetime({ offset: true }).optional().describe('Entries before this time'),
  walletId: z.string().optional().describe('Entries about this wallet'),
  approvalId: z
    .string()
    .optional()
    .describe('Entries about this approval (its pause, re-judgement and resolution)'),
  kind: z.enum(auditKinds).optional(),
  cursor: z.coerce.number().int().min(0).optional().describe('`nextCursor` of the previous page'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
})

export const auditEntrySchema = z.object({
  seq: z.number().int(),
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
  nextCursor: z.number().int().optional(),
})

export type ListAuditReturnType = z.infer<typeof listAuditAnswerSchema>
