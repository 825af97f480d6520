import {
  BaseError,
  eventListeners,
  keyedMutex,
  type QueryOptions,
  type Storage,
  type StoredRecord,
  storageSchema,
} from '@agentwallet/core'
import { compileQuery } from './compileQuery.js'
import { indexDefinitions } from './indexDefinitions.js'
import { migrate } from './migrate.js'
import { openDatabase } from './openDatabase.js'
import { plannerStats } from './plannerStats.js'
import { recordReader } from './recordReader.js'
import { sqliteTransaction } from './sqliteTransaction.js'
import { statementCache } from './statementCache.js'
import { syncIndexes } from './syncIndexes.js'
import { toStoredEvent } from './toStoredEvent.js'

export type SqliteStorageOptions = (
  | {
      /** The database file; created with its directory's permissions if missing. */ filename: string
      path?: undefined
    }
  | { /** Same as `filename`. */ path: string; filename?: undefined }
) & {
  /** Shown in logs and errors. Default `sqlite`. */
  name?: string | undefined
  /** `full` (default): every commit is on disk when `transaction` resolves. `normal`: faster, may lose the last commits on power loss. */
  synchronous?: 'full' | 'normal' | undefined
  /** Collections and fields to index. Default core's `storageSchema`; add your own collections here. */
  schema?: Record<string, { indexes: readonly string[] }> | undefined
}

export type SqliteStorage = Storage & {
  readonly filename: string
  /** SQLite's plan for a query, one line per step: to check that a query uses an index. */
  explainQuery(collection: string, options?: QueryOptions): string[]
}

/**
 * Durable Storage in one SQLite file (better-sqlite3, WAL), for one process: the server's default.
 * @example const storage = sqliteStorage({ filename: './data/agentwallet.db' })
 */
export const sqliteStorage = (options: SqliteStorageOptions): SqliteStorage => {
  const filename = options.filename ?? options.path
  if (!filename) throw new BaseError('validation_failed', 'sqliteStorage needs a filename')
  const db = openDatabase({ filename, synchronous: options.synchronous })
  try {
    migrate(db)
    syncIndexes(db, indexDefinitions(options.schema ?? storageSchema))
  } catch (error) {
    db.close()
    throw error
  }
  const cached = statementCache(db)
  const prepare = (sql: string) => {
    if (!db.open) throw new BaseError('internal', `Storage "${options.name ?? 'sqlite'}" is closed`)
    return cached(sql)
  }
  const committed = recordReader(prepare)
  const listeners = eventListeners()
  const mutex = keyedMutex()
  const stats = plannerStats(db)
  const durable = filename !== ':memory:' && filename !== ''

  return {
    name: options.name ?? 'sqlite',
    filename,
    capabilities: { durable, crossProcessLocks: false, crossProcessEvents: false },
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
    async transaction(keys, fn) {
      const release = await mutex.lockAll(keys)
      try {
        const unit = sqliteTransaction(db, prepare, committed)
        try {
          const result = await fn(unit.tx)
          const done = unit.commit()
          stats.wrote(done.rows)
          if (done.count > 0) listeners.notify(done.materialize())
          return result
        } finally {
          unit.finish()
        }
      } finally {
        release()
      }
    },
    async readEvents(stream, { after = 0, limit } = {}) {
      const rows = prepare(
        'SELECT stream, seq, id, type, timestamp, data FROM events WHERE stream = ? AND seq > ? ORDER BY seq LIMIT ?',
      ).all(stream, after, limit === undefined ? -1 : Math.max(0, Math.floor(limit)))
      return (rows as Parameters<typeof toStoredEvent>[0][]).map(toStoredEvent)
    },
    onEvents: listeners.add,
    async close() {
      listeners.clear()
      if (!db.open) return
      db.close()
    },
    explainQuery(collection, query) {
      const { sql, params } = compileQuery(collection, query)
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>
      return rows.map((row) => row.detail)
    },
  }
}
