import { appendAudit } from '../audit/appendAudit.js'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import type { ScreenedAddress } from './screenedAddress.js'
import {
  type ScreeningListRecord,
  screeningEntriesCollection,
  screeningEntryId,
  screeningListsCollection,
} from './screeningRecords.js'

/** Addresses to list (each checked already) with their reasons, or to take off with one reason. */
export type ScreeningChange =
  | { change: 'added' | 'imported'; entries: { address: ScreenedAddress; reason: string }[]; format?: string }
  | { change: 'removed'; addresses: ScreenedAddress[]; reason: string }

/**
 * Writes a change to a list in one commit with its audit entry (the list, the change, how many, and
 * the reasons), and answers how many addresses it listed or took off.
 * @example await writeScreeningEntries(ctx, admin, list, { change: 'removed', addresses, reason: 'cleared by compliance' })
 */
export async function writeScreeningEntries(
  ctx: AgentWalletContext,
  principal: Principal,
  list: ScreeningListRecord,
  change: ScreeningChange,
): Promise<number> {
  const now = ctx.now().toISOString()
  return ctx.storage.transaction([`screening:${list.id}`], async (tx) => {
    let changed = 0
    if (change.change === 'removed') {
      for (const address of change.addresses)
        if (
          await tx.delete(screeningEntriesCollection, screeningEntryId(list.id, address.family, address.key))
        )
          changed++
    } else {
      for (const { address, reason } of change.entries) {
        await tx.put(screeningEntriesCollection, {
          id: screeningEntryId(list.id, address.family, address.key),
          listId: list.id,
          tenantId: list.tenantId,
          shared: list.shared,
          family: address.family,
          address: address.address,
          key: address.key,
          reason,
          addedAt: now,
          addedBy: principal.id,
        })
        changed++
      }
    }
    await tx.put(screeningListsCollection, { ...list, updatedAt: now })
    appendAudit(ctx, tx, list.tenantId, {
      kind: 'screening.list_changed',
      subjects: { apiKeyId: principal.id },
      payload: {
        list: list.id,
        change: change.change,
        count: changed,
        ...(change.change === 'removed'
          ? { reason: change.reason, addresses: change.addresses.map(({ address }) => address) }
          : {
              ...(change.format ? { format: change.format } : {}),
              entries: change.entries.map(({ address, reason }) => ({ address: address.address, reason })),
            }),
      },
    })
    return changed
  })
}
