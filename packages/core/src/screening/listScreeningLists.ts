import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { type ScreeningListView, screeningListView } from './screeningListView.js'
import { screeningListsCollection } from './screeningRecords.js'

/**
 * The lists that screen the caller's tenant: its own and the shared ones, oldest first.
 * @example const { lists } = await listScreeningLists(ctx, admin, {})
 */
export async function listScreeningLists(
  ctx: AgentWalletContext,
  principal: Principal,
  _input: Record<string, never> = {},
): Promise<{ count: number; lists: ScreeningListView[] }> {
  const [own, shared] = await Promise.all([
    ctx.storage.query(screeningListsCollection, { where: { tenantId: principal.tenantId } }),
    ctx.storage.query(screeningListsCollection, { where: { shared: true } }),
  ])
  const records = [...new Map([...own, ...shared].map((list) => [list.id, list])).values()].sort((a, b) =>
    a.createdAt.localeCompare(b.createdAt),
  )
  const lists = await Promise.all(records.map((list) => screeningListView(ctx, list)))
  return { count: lists.length, lists }
}
