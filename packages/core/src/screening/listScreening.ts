import type { StorageReader } from '../storage/types.js'
import { screenedAddress } from './screenedAddress.js'
import {
  type ScreeningEntryRecord,
  screeningEntriesCollection,
  screeningListsCollection,
} from './screeningRecords.js'
import { ScreeningUnavailableError } from './screeningUnavailableError.js'
import type { ScreeningListHit, ScreeningResult, ScreeningSource, ScreeningSubject } from './types.js'

/** The name the operator lists answer as (`source` of their verdicts). */
export const listSourceName = 'lists'

/**
 * The operator's lists as a screening source: a counterparty on one of the tenant's lists or on a
 * shared list gets the list's verdict (block over warn), with each list's name and reason. Read from
 * storage on every ask (two indexed queries), so an address added through the API screens at once.
 * A storage that fails is an outage of this source, never "clear".
 * @example const result = await listScreening(ctx.storage).screenAddress(subject)
 */
export function listScreening(storage: StorageReader): ScreeningSource {
  return {
    name: listSourceName,
    async screenAddress(subject: ScreeningSubject): Promise<ScreeningResult> {
      const checked = screenedAddress(subject.family, subject.address)
      if (!checked.ok) return { verdict: 'clear', source: listSourceName, reasons: [] }
      const entries = await Promise.all([
        storage.query(screeningEntriesCollection, {
          where: { key: checked.key, tenantId: subject.tenantId },
        }),
        storage.query(screeningEntriesCollection, { where: { key: checked.key, shared: true } }),
      ]).catch((error: unknown) => {
        throw new ScreeningUnavailableError(listSourceName, { cause: error })
      })
      const found = dedupe(entries.flat()).filter((entry) => entry.family === checked.family)
      if (found.length === 0) return { verdict: 'clear', source: listSourceName, reasons: [] }
      const hits = await Promise.all(found.map((entry) => hitOf(storage, entry)))
      const listed = hits.filter((hit) => hit !== undefined)
      const block = listed.some(({ verdict }) => verdict === 'block')
      return {
        verdict: listed.length === 0 ? 'clear' : block ? 'block' : 'warn',
        source: listSourceName,
        reasons: listed.map(({ hit }) => `on list "${hit.listName}": ${hit.reason}`),
        lists: listed.map(({ hit }) => hit),
      }
    },
  }
}

function dedupe(entries: ScreeningEntryRecord[]): ScreeningEntryRecord[] {
  return [...new Map(entries.map((entry) => [entry.id, entry])).values()]
}

async function hitOf(
  storage: StorageReader,
  entry: ScreeningEntryRecord,
): Promise<{ verdict: 'block' | 'warn'; hit: ScreeningListHit } | undefined> {
  const list = await storage.get(screeningListsCollection, entry.listId).catch((error: unknown) => {
    throw new ScreeningUnavailableError(listSourceName, { cause: error })
  })
  // An entry whose list is gone (deleted between the two reads) lists nothing.
  if (!list) return undefined
  return {
    verdict: list.verdict,
    hit: { listId: list.id, listName: list.name, shared: list.shared, reason: entry.reason },
  }
}
