import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { type ScreeningListRecord, screeningEntriesCollection } from './screeningRecords.js'
import type { screeningListSchema } from './screeningSchemas.js'

export type ScreeningListView = z.output<typeof screeningListSchema>

/**
 * A list as the API answers it, with how many addresses it holds (one indexed count).
 * @example return { list: await screeningListView(ctx, list) }
 */
export async function screeningListView(
  ctx: Pick<AgentWalletContext, 'storage'>,
  list: ScreeningListRecord,
): Promise<ScreeningListView> {
  const entries = await ctx.storage.count(screeningEntriesCollection, { where: { listId: list.id } })
  return {
    id: list.id,
    name: list.name,
    ...(list.description ? { description: list.description } : {}),
    shared: list.shared,
    verdict: list.verdict,
    entries,
    createdAt: list.createdAt,
    updatedAt: list.updatedAt,
  }
}
