import { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { auditStream } from './auditStream.js'
import { auditKinds, type StoredAuditEntry } from './types.js'

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

/**
 * A page of the caller's tenant's trail, oldest first, filtered by time, wallet, approval and kind. The filters
 * are applied while reading the stream in seq order (the trail has no index of its own): a page
 * stops after `limit` matches or 20 pages of the stream read.
 * @example const { entries, nextCursor } = await listAudit(ctx, admin, { kind: 'policy.decision' })
 */
export async function listAudit(
  ctx: Pick<AgentWalletContext, 'storage'>,
  principal: { tenantId: string },
  input: z.output<typeof listAuditSchema>,
): Promise<ListAuditReturnType> {
  const entries: ListAuditReturnType['entries'] = []
  let after = input.cursor ?? 0
  for (let reads = 0; reads < 20; reads++) {
    const page = await ctx.storage.readEvents(auditStream(principal.tenantId), { after, limit: 500 })
    for (const event of page) {
      after = event.seq
      const entry = event.data as StoredAuditEntry
      if (matches(entry, input)) {
        entries.push({ seq: event.seq, ...entry, subjects: definedOf(entry.subjects) })
        if (entries.length === input.limit) return { entries, nextCursor: after }
      }
    }
    if (page.length < 500) return { entries }
  }
  return { entries, nextCursor: after }
}

function matches(entry: StoredAuditEntry, input: z.output<typeof listAuditSchema>): boolean {
  if (input.kind && entry.kind !== input.kind) return false
  if (input.walletId && entry.subjects.walletId !== input.walletId) return false
  if (input.approvalId && entry.subjects.approvalId !== input.approvalId) return false
  const at = Date.parse(entry.at)
  if (input.from && at < Date.parse(input.from)) return false
  if (input.to && at >= Date.parse(input.to)) return false
  return true
}

function definedOf(subjects: StoredAuditEntry['subjects']): Record<string, string> {
  return Object.fromEntries(
    Object.entries(subjects).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
  )
}
