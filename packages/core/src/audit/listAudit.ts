import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { ListAuditReturnType, listAuditSchema } from './auditSchemas.js'
import { auditStream } from './auditStream.js'
import type { StoredAuditEntry } from './types.js'

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
