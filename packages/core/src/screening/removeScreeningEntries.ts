import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { checkScreenedAddresses } from './checkScreenedAddresses.js'
import { findScreeningList } from './findScreeningList.js'
import { type ScreeningListView, screeningListView } from './screeningListView.js'
import type { removeScreeningEntriesSchema } from './screeningSchemas.js'
import { writeScreeningEntries } from './writeScreeningEntries.js'

/**
 * Takes addresses off a list with the reason (the audit trail keeps it); answers how many were on it.
 * @example await removeScreeningEntries(ctx, admin, { list, family: 'evm', addresses: [address], reason: 'false positive' })
 */
export async function removeScreeningEntries(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof removeScreeningEntriesSchema>,
): Promise<{ list: ScreeningListView; removed: number }> {
  const list = await findScreeningList(ctx, principal, input.list, { change: true })
  const addresses = checkScreenedAddresses(input.family, input.addresses, (index) => ['addresses', index])
  const removed = await writeScreeningEntries(ctx, principal, list, {
    change: 'removed',
    addresses,
    reason: input.reason,
  })
  return { list: await screeningListView(ctx, list), removed }
}
