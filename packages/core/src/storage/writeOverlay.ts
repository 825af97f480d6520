import { matchesQuery, queryRecords } from './queryRecords.js'
import type { QueryOptions, StoredRecord } from './types.js'

// For storage adapters whose transactions buffer writes over the committed state until commit
// (SQLite, Postgres): what a read inside the transaction sees. Pure, so a synchronous and an
// asynchronous adapter share it; each does its own reading of the committed rows.

/** One collection's buffered writes: the record's JSON text by id, or null for a delete. */
export type PendingWrites = ReadonlyMap<string, string | null>

/**
 * The committed page to read under `pending`: from the start, `pending.size` rows longer, since
 * each buffered id can hide at most one committed row of the page.
 * @example const rows = await committed.query(collection, committedPageOptions(options, pending))
 */
export function committedPageOptions(options: QueryOptions, pending: PendingWrites): QueryOptions {
  const offset = Math.max(0, options.offset ?? 0)
  const limit = options.limit === undefined ? undefined : offset + Math.max(0, options.limit) + pending.size
  return { ...options, offset: 0, limit }
}

/**
 * The page as the transaction sees it: the committed rows (read with {@link committedPageOptions})
 * less those it rewrote or deleted, plus its own records, filtered, ordered and paged as asked.
 * @example overlayPage(rows, pending, options)
 */
export function overlayPage(
  committed: readonly StoredRecord[],
  pending: PendingWrites,
  options: QueryOptions,
): StoredRecord[] {
  const base = committed.filter((record) => !pending.has(record.id))
  const own = [...pending.values()].flatMap((text) => (text === null ? [] : [parseRecord(text)]))
  return queryRecords([...base, ...own], options)
}

/**
 * The count as the transaction sees it: the committed count, less each rewritten or deleted record
 * that matched before, plus each buffered record that matches now.
 * @example overlayCount(total, [...pending].map(([id, text]) => ({ before: committed.get(id), after: text })), options)
 */
export function overlayCount(
  committedCount: number,
  changes: Iterable<{ before: StoredRecord | undefined; after: string | null }>,
  options: Pick<QueryOptions, 'where' | 'range'>,
): number {
  let count = committedCount
  for (const { before, after } of changes) {
    if (before !== undefined && matchesQuery(before, options)) count -= 1
    if (after !== null && matchesQuery(parseRecord(after), options)) count += 1
  }
  return count
}

function parseRecord(text: string): StoredRecord {
  return JSON.parse(text) as StoredRecord
}
