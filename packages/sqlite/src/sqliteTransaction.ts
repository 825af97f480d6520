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
  type StoredEvent,
  type StoredRecord,
} from '@agentwallet/core'
import type { Database, Statement, Transaction } from 'better-sqlite3'
import type { CollectionTables } from './collectionTables.js'
import type { RecordReader } from './recordReader.js'
import { serializeRecord } from './serializeRecord.js'
import { collectionTable } from './sqlText.js'
import { toStoredEvent } from './toStoredEvent.js'

/** Buffered writes per collection and id: the record's JSON text, or null for a delete. */
type Writes = Map<string, Map<string, string | null>>
/** An insert to re-check at commit; `replacesDeleted` when this transaction deleted the id first. */
type Insert = { collection: string; id: string; replacesDeleted: boolean }

export type { PendingEvent }

export type SqliteTransaction = {
  tx: StorageTx
  /** Applies every buffered write and event in one SQL transaction; returns the events as stored. */
  commit(): Committed
  /** Makes any later use of `tx` throw. */
  finish(): void
}

/**
 * What a commit wrote: whether it wrote at all, the row count, and its events kept as text so each
 * listener gets its own copy.
 */
export type Committed = {
  wrote: boolean
  count: number
  rows: number
  /** The records written (ids by collection) and the streams appended to. */
  records: ReadonlyMap<string, ReadonlyMap<string, unknown>>
  streams: ReadonlySet<string>
  materialize(): StoredEvent[]
}

const parse = <T>(text: string): T => JSON.parse(text) as T

export const storageConflict = (collection: string, id: string) =>
  new BaseError('storage_conflict', `Record "${id}" already exists in "${collection}"`, {
    details: { collection, id },
  })

/**
 * A transaction that buffers its writes over the committed state (reads see them) and applies
 * them at commit in one synchronous SQL transaction: better-sqlite3 cannot keep an SQL
 * transaction open across the awaits of `fn` while other callers use the same connection.
 * @example const { tx, commit } = sqliteTransaction(apply, reader, tables); await fn(tx); commit()
 */
export const sqliteTransaction = (
  apply: ReturnType<typeof applyWrites>,
  committed: RecordReader,
  tables: CollectionTables,
): SqliteTransaction => {
  const writes: Writes = new Map()
  const inserts: Insert[] = []
  const events: PendingEvent[] = []
  let open = true

  // A tx captured and used after its transaction ended would write nowhere; fail loudly instead.
  const ensureOpen = () => {
    if (!open) throw new BaseError('internal', 'The transaction has already finished')
  }
  const pendingFor = (collection: string) => {
    ensureOpen()
    let found = writes.get(collection)
    if (!found) {
      found = new Map()
      writes.set(collection, found)
    }
    return found
  }
  const lookup = (collection: string, id: string): string | undefined => {
    const pending = writes.get(collection)?.get(id)
    return pending === undefined ? committed.get(collection, id) : (pending ?? undefined)
  }

  const query = (collection: string, options: QueryOptions = {}): StoredRecord[] => {
    const pending = writes.get(collection)
    if (!pending || pending.size === 0) return committed.query(collection, options).map(parse<StoredRecord>)
    const rows = committed.query(collection, committedPageOptions(options, pending)).map(parse<StoredRecord>)
    return overlayPage(rows, pending, options)
  }

  const count = (collection: string, options: Pick<QueryOptions, 'where' | 'range'> = {}): number => {
    const total = committed.count(collection, options)
    const pending = writes.get(collection)
    if (!pending) return total
    const changes = [...pending].map(([id, after]) => {
      const before = committed.get(collection, id)
      return { before: before === undefined ? undefined : parse<StoredRecord>(before), after }
    })
    return overlayCount(total, changes, options)
  }

  const tx: StorageTx = {
    async get<T extends StoredRecord>(collection: string, id: string) {
      const text = lookup(collection, id)
      return text === undefined ? undefined : parse<T>(text)
    },
    async query<T extends StoredRecord>(collection: string, options?: QueryOptions) {
      return query(collection, options) as T[]
    },
    async count(collection, options) {
      return count(collection, options)
    },
    async insert(collection, record) {
      const text = serializeRecord(collection, record)
      const pending = pendingFor(collection)
      if (lookup(collection, record.id) !== undefined) throw storageConflict(collection, record.id)
      inserts.push({ collection, id: record.id, replacesDeleted: pending.get(record.id) === null })
      pending.set(record.id, text)
    },
    async put(collection, record) {
      const text = serializeRecord(collection, record)
      pendingFor(collection).set(record.id, text)
    },
    async delete(collection, id) {
      const existed = lookup(collection, id) !== undefined
      pendingFor(collection).set(id, null)
      return existed
    },
    appendEvent(stream, event: EventInput) {
      ensureOpen()
      events.push(pendingEvent(stream, event))
    },
  }

  return {
    tx,
    commit() {
      ensureOpen()
      // A lock-only transaction (see core's withLock) has nothing to write: skip SQLite entirely.
      const wrote = writes.size > 0 || events.length > 0
      const stored = wrote ? apply.immediate({ inserts, writes, events }) : []
      for (const collection of writes.keys()) tables.created(collection)
      open = false
      return {
        wrote,
        count: stored.length,
        rows: [...writes.values()].reduce((sum, pending) => sum + pending.size, 0),
        records: writes,
        streams: new Set(events.map((event) => event.stream)),
        materialize: () => stored.map(toStoredEvent),
      }
    },
    finish() {
      open = false
    },
  }
}

/** What a transaction buffered, applied at its commit. */
type BufferedWrites = { inserts: readonly Insert[]; writes: Writes; events: readonly PendingEvent[] }

/** The events of a commit as stored, with their seqs. */
type StoredPending = Array<PendingEvent & { seq: number }>

/**
 * Applies a transaction's buffered writes and events in one SQL transaction (`.immediate()`): made
 * once per database and shared by every transaction, not built again for each.
 * @example const apply = applyWrites(db, prepare, committed, tables); apply.immediate({ inserts, writes, events })
 */
export const applyWrites = (
  db: Database,
  prepare: (sql: string) => Statement,
  committed: RecordReader,
  tables: CollectionTables,
): Transaction<(buffered: BufferedWrites) => StoredPending> =>
  db.transaction(({ inserts, writes, events }: BufferedWrites) => {
    // An unlocked transaction may have inserted the same id since; check before applying anything.
    for (const { collection, id, replacesDeleted } of inserts) {
      if (!replacesDeleted && committed.get(collection, id) !== undefined)
        throw storageConflict(collection, id)
    }
    for (const [collection, pending] of writes) {
      tables.ensure(collection)
      const table = collectionTable(collection)
      const upsert = prepare(
        `INSERT INTO ${table} (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
      )
      const remove = prepare(`DELETE FROM ${table} WHERE id = ?`)
      for (const [id, text] of pending) {
        if (text === null) remove.run(id)
        else upsert.run(id, text)
      }
    }
    // Seqs are taken here, under SQLite's write lock, so they follow commit order.
    const lastSeq = prepare('SELECT coalesce(max(seq), 0) FROM events WHERE stream = ?').pluck()
    const append = prepare(
      'INSERT INTO events (stream, seq, id, type, timestamp, data) VALUES (?, ?, ?, ?, ?, ?)',
    )
    const appendKey = prepare('INSERT OR IGNORE INTO event_keys (stream, key, seq) VALUES (?, ?, ?)')
    const seqs = new Map<string, number>()
    const stored: Array<PendingEvent & { seq: number }> = []
    for (const event of events) {
      const seq = (seqs.get(event.stream) ?? (lastSeq.get(event.stream) as number)) + 1
      seqs.set(event.stream, seq)
      append.run(event.stream, seq, event.id, event.type, event.timestamp, event.data)
      for (const key of event.keys ?? []) appendKey.run(event.stream, key, seq)
      stored.push({ ...event, seq })
    }
    return stored
  })
