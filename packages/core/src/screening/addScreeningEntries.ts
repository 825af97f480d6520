import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { checkScreenedAddresses } from './checkScreenedAddresses.js'
import { findScreeningList } from './findScreeningList.js'
import { type ScreeningListView, screeningListView } from './screeningListView.js'
import type { addScreeningEntriesSchema } from './screeningSchemas.js'
import { writeScreeningEntries } from './writeScreeningEntries.js'

/**
 * Lists addresses, each with its reason; all or none (`validation_failed` names every bad address).
 * @example await addScreeningEntries(ctx, admin, { list, family: 'evm', entries: [{ address, reason: 'drainer' }] })
 */
export async function addScreeningEntries(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof addScreeningEntriesSchema>,
): Promise<{ list: ScreeningListView; added: number }> {
  const list = await findScreeningList(ctx, principal, input.list, { change: true })
  const addresses = checkScreenedAddresses(
    input.family,
    input.entries.map((entry) => entry.address),
    (index) => ['entries', index, 'address'],
  )
  const entries = addresses.map((address, index) => ({ address, reason: input.entries[index]!.reason }))
  const added = await writeScreeningEntries(ctx, principal, list, { change: 'added', entries })
  return { list: await screeningListView(ctx, list), added }
}
