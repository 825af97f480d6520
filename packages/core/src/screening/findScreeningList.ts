import type { AgentWalletContext } from '../context.js'
import { ForbiddenError, NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { type ScreeningListRecord, screeningListsCollection } from './screeningRecords.js'

/**
 * A list the caller may see: its tenant's, or a shared one. With `change`, one it may also change:
 * a shared list only by the operator's root admin (`forbidden` for another tenant's admin). Another
 * tenant's own list is `not_found` (no existence leak).
 * @example const list = await findScreeningList(ctx, principal, 'scl_…', { change: true })
 */
export async function findScreeningList(
  ctx: Pick<AgentWalletContext, 'storage'>,
  principal: Principal,
  id: string,
  options: { change?: boolean | undefined } = {},
): Promise<ScreeningListRecord> {
  const list = await ctx.storage.get(screeningListsCollection, id)
  if (!list || (!list.shared && list.tenantId !== principal.tenantId))
    throw new NotFoundError('Screening list')
  if (options.change && list.shared && !principal.root)
    throw new ForbiddenError('Only the operator’s root admin changes a shared screening list', {
      details: { list: list.id, reason: 'shared_list' },
    })
  return list
}
