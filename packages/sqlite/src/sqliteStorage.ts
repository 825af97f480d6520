import {
  BaseError,
  eventListeners,
  keyedMutex,
  type QueryOptions,
  type ReadEventsOptions,
  type Storage,
  type StorageTx,
  type StoredRecord,
  storageSchema,
} from '@agentwallet/core'
import { collectionTables, createCollectionTable } from './collectionTables.js'
import { compileQuery } from './compileQuery.js'
import { eventsQuery } from './eventsQuery.js'
import { indexDefinitions } from './indexDefinitions.js'
import { migrate } from './migrate.js'
import { openDatabase } from './openDatabase.js'
import { plannerStats } from './plannerStats.js'
import { recordReader } from './recordReader.js'
import { applyWrites, sqliteTransaction } from './sqliteTransaction.js'
import { statementCache } from './statementCache.js'
import { syncIndexes } from './syncIndexes.js'
import { toStoredEvent } from './toStoredEvent.js'
import { noteReads, unsyncedWrites } from './unsyncedWrites.js'
import { walLog } from './walLog.js'

export type SqliteStorageOptions = (
  | {
      /** The database file; created with its directory's permissions if missing. */ filename: string
      path?: undefined
    }
  | { /** Same as `filename`. */ path: string; filename?: undefined }
) & {
  /** Shown in logs and errors. Default `sqlite`. */
  name?: string | undefined
  /**
   * `full` (default): every commit is on disk when `transaction` resolves; commits ready together
   * share one sync (group commit). `normal`: no sync per commit, may lose the last commits on power loss.
   */
  synchronous?: 'full' | 'normal' | undefined
  /**
   * With `synchronous: full`: `true` (default) shares one sync among the commits ready together, off
   * the event loop; `false` lets SQLite sync each commit on its own, on the loop (the behaviour before
   * group commit, kept for comparison in benchmarks).
   */
  groupCommit?: boolean | undefined
  /** Collections and fields to index. Default core's `storageSchema`; add your own collections here. */
  schema?: Record<string, { indexes: readonly string[] }> | undefined
}

export type SqliteStorage = Storage & {
  readonly filename: string
  /** Syncs of the log made by group commit so far (0 unless `synchronous` is `full` on a file). */
  readonly syncs: number
  /** SQLite's plan for a query, one line per step: to check that a query uses an index. */
  explainQuery(collection: string, options?: QueryOptions): string[]
  /** SQLite's plan for a `readEvents`: to check that a key reads an index, not the stream. */
  explainReadEvents(stream: string, options: ReadEventsOptions): string[]
}

/**
 * Durable Storage in one SQLite file (better-sqlite3, WAL), for one process: the server's default.
 * @example const storage = sqliteStorage({ filename: './data/agentwallet.db' })
 */
export const sqliteStorage = (options: SqliteStorageOptions): SqliteStorage => {
  const filename = options.filename ?? options.path
  if (!filename) throw new BaseError('validation_failed', 'sqliteStorage needs a filename')
  const durable = filename !== ':memory:' && filename !== ''
  const grouped = durable && (options.synchronous ?? 'full') === 'full' && options.groupCommit !== false
  const db = openDatabase({ filename, synchronous: grouped ? 'off' : options.synchronous })
  try {
    if (grouped) db.pragma('wal_autocheckpoint = 0')
    migrate(db)
    const schema = options.schema ?? storageSchema
    // The schema's collections get their tables now, so their indexes can be made; others at first write.
    db.transaction(() => {
      for (const collection of Object.keys(schema)) db.exec(createCollectionTable(collection))
    }).immediate()
    syncIndexes(db, indexDefinitions(schema))
  } catch (error) {
    db.close()
    throw error
  }
  const cached = statementCache(db)
  const prepare = (sql: string) => {
    if (!db.open) throw new BaseError('internal', `Storage "${options.name ?? 'sqlite'}" is closed`)
    return cached(sql)
  }
  const tables = collectionTables(db)
  const committed = recordReader(prepare, tables)
  const apply = applyWrites(db, prepare, committed, tables)
  const listeners = eventListeners()
  const mutex = keyedMutex()
  const stats = plannerStats(db)
  const log = grouped ? walLog(db, filename) : undefined
  const unsynced = unsyncedWrites(() => log?.sync.synced ?? 0)
  /**
   * Returns `value` once the commits it may have read are on disk (`ticket`: the last commit that
   * wrote what was read, `unsynced`): nothing leaves before it is durable, and a read of records no
   * unsynced commit wrote does not wait for other commits' sync.
   */
  const durableRead = async <T>(value: T, ticket: number): Promise<T> => {
    if (log && ticket > log.sync.synced) await log.sync.until(ticket)
    return value
  }

  /**
   * `fn` under the locks of `keys`, its writes committed in one SQL transaction. With `wait`, the
   * locks are held, and the result waits, until the commit (or, if it wrote nothing, what it read)
   * is on disk; without, both end once it is applied and `synced` follows the disk.
   */
  const commitUnder = async <T>(
    keys: readonly string[],
    fn: (tx: StorageTx) => Promise<T>,
    wait: boolean,
  ): Promise<{ result: T; synced: Promise<void> }> => {
    const release = await mutex.lockAll(keys)
    try {
      const reads = noteReads(committed, unsynced)
      const unit = sqliteTransaction(apply, reads.reader, tables)
      try {
        const result = await fn(unit.tx)
        const done = unit.commit()
        stats.wrote(done.rows)
        const notify = () => {
          if (done.count > 0) listeners.notify(done.materialize(), { fresh: true })
        }
        let synced: Promise<void>
        if (!log) {
          notify()
          synced = Promise.resolve()
        } else if (done.wrote) {
          const ticket = log.committed()
          unsynced.wrote(ticket, done.records, done.streams)
          // The events wait until the commit is on disk; `then` runs in commit order, so listeners
          // see seqs in order.
          synced = log.sync.until(ticket, notify)
        } else synced = durableRead(undefined, reads.ticket()) // what it read, and nothing else
        if (wait) await synced
        else synced.catch(() => undefined) // the caller awaits it before anything leaves
        return { result, synced }
      } finally {
        unit.finish()
      }
    } finally {
      release()
    }
  }

  return {
    name: options.name ?? 'sqlite',
    filename,
    capabilities: { durable, crossProcessLocks: false, crossProcessEvents: false },
    get syncs() {
      return log?.sync.syncs ?? 0
    },
    async get<T extends StoredRecord>(collection: string, id: string) {
      const text = committed.get(collection, id)
      return durableRead(
        text === undefined ? undefined : (JSON.parse(text) as T),
        unsynced.ticketOf(collection, id),
      )
    },
    async query<T extends StoredRecord>(collection: string, query?: QueryOptions) {
      return durableRead(
        committed.query(collection, query).map((text) => JSON.parse(text) as T),
        unsynced.ticketOf(collection),
      )
    },
    async count(collection, query) {
      return durableRead(
        committed.count(collection, { where: query?.where, range: query?.range }),
        unsynced.ticketOf(collection),
      )
    },
    transaction: (keys, fn) => commitUnder(keys, fn, true).then(({ result }) => result),
    unsynced: log && {
      reader: {
        async get<T extends StoredRecord>(collection: string, id: string) {
          const text = committed.get(collection, id)
          return text === undefined ? undefined : (JSON.parse(text) as T)
        },
        async query<T extends StoredRecord>(collection: string, query?: QueryOptions) {
          return committed.query(collection, query).map((text) => JSON.parse(text) as T)
        },
        async count(collection, query) {
          return committed.count(collection, { where: query?.where, range: query?.range })
        },
      },
      commit: (fn) => commitUnder([], fn, false),
      synced: () => log.sync.until(log.sync.written),
    },
    async readEvents(stream, options = {}) {
      const { sql, params } = eventsQuery(stream, options)
      const rows = prepare(sql).all(...params)
      return durableRead(
        (rows as Parameters<typeof toStoredEvent>[0][]).map(toStoredEvent),
        unsynced.streamTicket(stream),
      )
    },
    onEvents: listeners.add,
    async close() {
      listeners.clear()
      if (!db.open) return
      if (log) await log.close()
      db.close()
    },
    explainQuery(collection, query) {
      const { sql, params } = compileQuery(collection, query)
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>
      return rows.map((row) => row.detail)
    },
    explainReadEvents(stream, options) {
      const { sql, params } = eventsQuery(stream, options)
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>
      return rows.map((row) => row.detail)
    },
  }
}
