import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { findScreeningList } from './findScreeningList.js'
import { screeningEntriesCollection } from './screeningRecords.js'
import type { listScreeningEntriesSchema, screeningEntrySchema } from './screeningSchemas.js'

/**
 * The addresses on a list the caller may see, newest first, with who listed each and why.
 * @example const { entries } = await listScreeningEntries(ctx, admin, { list: 'scl_…', limit: 50, offset: 0 })
 */
export async function listScreeningEntries(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof listScreeningEntriesSchema>,
): Promise<{ count: number; entries: z.output<typeof screeningEntrySchema>[] }> {
  const list = await findScreeningList(ctx, principal, input.list)
  const records = await ctx.storage.query(screeningEntriesCollection, {
    where: { listId: list.id },
    orderBy: 'addedAt',
    order: 'desc',
    limit: input.limit,
    offset: input.offset,
  })
  const entries = records.map(({ family, address, reason, addedAt, addedBy }) => ({
    family,
    address,
    reason,
    addedAt,
    addedBy,
  }))
  return { count: entries.length, entries }
}
