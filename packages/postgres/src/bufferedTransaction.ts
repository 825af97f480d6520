import {
  BaseError,
  committedPageOptions,
  type EventInput,
  overlayCount,
  overlayPage,
  type PendingEvent,
  pendingEvent,
  type QueryOptions,
  type StorageTx,
  type StoredRecord,
} from '@agentwallet/core'
import type { RecordReader } from './recordReader.js'
import { serializeRecord } from './serializeRecord.js'

/** A buffered write: the record's JSON text, or null for a delete; `strict` for an insert to re-check. */
export type Write = { collection: string; id: string; text: string | null; strict: boolean }
export type { PendingEvent }

export type BufferedTransaction = {
  tx: StorageTx
  /** The writes in one global order (collection, id), so concurrent commits lock rows alike. */
  writes(): Write[]
  events(): PendingEvent[]
  /** Makes any later use of `tx` throw. */
  finish(): void
}

const parse = (text: string) => JSON.parse(text) as StoredRecord

/**
 * The error of an insert whose id exists.
 * @example throw storageConflict('wallets', 'w1')
 */
export const storageConflict = (collection: string, id: string) =>
  new BaseError('storage_conflict', `Record "${id}" already exists in "${collection}"`, {
    details: { collection, id },
  })

/**
 * A transaction that buffers its writes over the committed state (its reads see them) until commit.
 * No connection is held while `fn` runs, so application code can never keep a pooled connection
 * busy; the commit applies everything in one short SQL transaction (see `applyCommit`).
 * @example const unit = bufferedTransaction(reader); await fn(unit.tx); await applyCommit(client, tables, unit)
 */
export const bufferedTransaction = (committed: RecordReader): BufferedTransaction => {
  const pending = new Map<string, Map<string, string | null>>()
  /** Inserts to re-check at commit (an insert over an id this transaction deleted is not). */
  const strict = new Map<string, Set<string>>()
  const events: PendingEvent[] = []
  let open = true

  // A tx captured and used after its transaction ended would write nowhere; fail loudly instead.
  const ensureOpen = () => {
    if (!open) throw new BaseError('internal', 'The transaction has already finished')
  }
  const pendingFor = (collection: string) => {
    ensureOpen()
    let found = pending.get(collection)
    if (!found) {
      found = new Map()
      pending.set(collection, found)
    }
    return found
  }
  const lookup = async (collection: string, id: string): Promise<StoredRecord | undefined> => {
    const own = pending.get(collection)?.get(id)
    if (own === undefined) return committed.get(collection, id)
    return own === null ? undefined : parse(own)
  }
  const write = (collection: string, id: string, text: string | null, isStrict: boolean) => {
    pendingFor(collection).set(id, text)
    const ids = strict.get(collection) ?? new Set<string>()
    strict.set(collection, ids)
    if (isStrict) ids.add(id)
    else ids.delete(id)
  }

  const query = async (collection: string, options: QueryOptions = {}): Promise<StoredRecord[]> => {
    const own = pending.get(collection)
    if (!own || own.size === 0) return committed.query(collection, options)
    const rows = await committed.query(collection, committedPageOptions(options, own))
    return overlayPage(rows, own, options)
  }

  const count = async (collection: string, options: Pick<QueryOptions, 'where' | 'range'> = {}) => {
    const total = await committed.count(collection, options)
    const own = pending.get(collection)
    if (!own) return total
    const changes = await Promise.all(
      [...own].map(async ([id, after]) => ({ before: await committed.get(collection, id), after })),
    )
    return overlayCount(total, changes, options)
  }

  const tx: StorageTx = {
    async get<T extends StoredRecord>(collection: string, id: string) {
      return (await lookup(collection, id)) as T | undefined
    },
    async query<T extends StoredRecord>(collection: string, options?: QueryOptions) {
      return (await query(collection, options)) as T[]
    },
    count,
    async insert(collection, record) {
      const text = serializeRecord(collection, record)
      ensureOpen()
      if ((await lookup(collection, record.id)) !== undefined) throw storageConflict(collection, record.id)
      // Re-inserting an id this transaction deleted replaces it; any other insert is re-checked at commit.
      write(collection, record.id, text, pendingFor(collection).get(record.id) !== null)
    },
    async put(collection, record) {
      const text = serializeRecord(collection, record)
      write(collection, record.id, text, false)
    },
    async delete(collection, id) {
      ensureOpen()
      const existed = (await lookup(collection, id)) !== undefined
      write(collection, id, null, false)
      return existed
    },
    appendEvent(stream, event: EventInput) {
      ensureOpen()
      events.push(pendingEvent(stream, event))
    },
  }

  return {
    tx,
    writes: () =>
      [...pending]
        .flatMap(([collection, own]) =>
          [...own].map(([id, text]) => ({
            collection,
            id,
            text,
            strict: strict.get(collection)?.has(id) ?? false,
          })),
        )
        .sort((a, b) =>
          a.collection < b.collection ? -1 : a.collection > b.collection ? 1 : a.id < b.id ? -1 : 1,
        ),
    events: () => events,
    finish() {
      open = false
    },
  }
}
