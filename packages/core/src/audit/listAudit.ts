import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { ListAuditReturnType, listAuditSchema } from './auditSchemas.js'
import { auditStream } from './auditStream.js'
import type { StoredAuditEntry } from './types.js'

type ListAuditInput = z.output<typeof listAuditSchema>

/**
 * A page of the caller's tenant's trail, oldest first, filtered by time, wallet, approval and kind.
 * The storage selects by the most selective of approval, wallet and kind through its index of the
 * entries' keys (`auditEventKeys`) and by time; another filter given beside it is checked on what
 * the index selected, a page stopping after `limit` matches or 20 reads.
 * @example const { entries, nextCursor } = await listAudit(ctx, admin, { kind: 'policy.decision' })
 */
export async function listAudit(
  ctx: Pick<AgentWalletContext, 'storage'>,
  principal: { tenantId: string },
  input: ListAuditInput,
): Promise<ListAuditReturnType> {
  const entries: ListAuditReturnType['entries'] = []
  const key = input.approvalId
    ? `approvalId:${input.approvalId}`
    : input.walletId
      ? `walletId:${input.walletId}`
      : input.kind && `kind:${input.kind}`
  // Stored times are UTC ISO strings; a bound given with an offset is compared as the same instant.
  const from = input.from && new Date(input.from).toISOString()
  const to = input.to && new Date(input.to).toISOString()
  let after = input.cursor ?? 0
  for (let reads = 0; reads < 20; reads++) {
    const page = await ctx.storage.readEvents(auditStream(principal.tenantId), {
      after,
      limit: 500,
      key,
      from,
      to,
    })
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

function matches(entry: StoredAuditEntry, input: ListAuditInput): boolean {
  if (input.kind && entry.kind !== input.kind) return false
  if (input.walletId && entry.subjects.walletId !== input.walletId) return false
  return !input.approvalId || entry.subjects.approvalId === input.approvalId
}

function definedOf(subjects: StoredAuditEntry['subjects']): Record<string, string> {
  return Object.fromEntries(
    Object.entries(subjects).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
  )
}
