import { randomUUID } from 'node:crypto'
import {
  eventListeners,
  keyedMutex,
  type QueryOptions,
  type ReadEventsOptions,
  type Storage,
  type StorageCapabilities,
  type StorageTx,
  type StoredEvent,
  type StoredRecord,
  storageSchema,
  type TokenBucketLimit,
  type TokenTake,
} from '@agentwallet/core'
import pg from 'pg'
import {
  type AdvisoryLock,
  tryAdvisoryLock,
  type WithLeaderLockOptions,
  withLeaderLock,
} from './advisoryLock.js'
import { applyCommit } from './applyCommit.js'
import { bufferedTransaction } from './bufferedTransaction.js'
import { type ClaimOptions, claimRecords } from './claimRecords.js'
import { compileQuery } from './compileQuery.js'
import { connectionConfig, type PostgresConnectionOptions } from './connectionConfig.js'
import { eventListener } from './eventListener.js'
import { eventsQuery } from './eventsQuery.js'
import { lockId } from './lockId.js'
import { defaultSchema, migrate } from './migrate.js'
import type { SeqRange } from './notification.js'
import { pruneTokenBuckets, takeToken } from './rateBuckets.js'
import { recordReader } from './recordReader.js'
import { tables as tablesOf } from './tables.js'
import { type EventRow, toStoredEvent } from './toStoredEvent.js'

export type PostgresStorageOptions = PostgresConnectionOptions & {
  /** The Postgres schema holding the tables. Default `agentwallet`. */
  schema?: string | undefined
  /** Shown in logs and errors. Default `postgres`. */
  name?: string | undefined
  /** Connections for reads and commits (the "work" pool). Default 10. */
  poolSize?: number | undefined
  /** Connections that hold keyed transactions' advisory locks (the "lock" pool). Default `poolSize`. */
  lockPoolSize?: number | undefined
  /** Run `migrate` at start (default true). Set false when a CLI migrates before rollout. */
  migrate?: boolean | undefined
  /** Collections and fields to index. Default core's `storageSchema`. */
  indexes?: Record<string, { indexes: readonly string[] }> | undefined
  /** At most this often (per process) a take also deletes the buckets that are full again. Default 60 s. */
  tokenBucketPruneMs?: number | undefined
}

export type PostgresStorage = Storage & {
  readonly schema: string
  readonly capabilities: StorageCapabilities & { claim: true; leaderLocks: true; sharedTokenBuckets: true }
  /** One token from a bucket shared by every instance on the schema, timed by the database clock. */
  takeToken(key: string, limit: TokenBucketLimit): Promise<TokenTake>
  /** Claims records with `FOR UPDATE SKIP LOCKED` and patches them at once (webhook deliveries). */
  claim<T extends StoredRecord>(collection: string, options: ClaimOptions): Promise<T[]>
  /** Takes a named session lock if free (one tracker per chain across replicas). */
  tryAdvisoryLock(name: string): Promise<AdvisoryLock | undefined>
  /** The same as `tryAdvisoryLock`, under the Storage port's optional name (used by core's tracker). */
  tryLeaderLock(name: string): Promise<AdvisoryLock | undefined>
  /** Waits to hold the named lock, runs `fn` as leader, lets go. */
  withLeaderLock<T>(
    name: string,
    fn: (signal: AbortSignal) => Promise<T>,
    options?: WithLeaderLockOptions,
  ): Promise<T>
  /** Postgres' plan for a query, one line per row: to check that a query uses an index. */
  explainQuery(collection: string, options?: QueryOptions): Promise<string[]>
  /** Postgres' plan for a `readEvents`: to check that a key reads an index, not the stream. */
  explainReadEvents(stream: string, options: ReadEventsOptions): Promise<string[]>
}

/**
 * Storage on PostgreSQL, shared by any number of processes: locks, event seqs and event delivery
 * hold across all of them. Connects, migrates (unless `migrate: false`) and starts listening.
 *
 * Keyed transactions draw a connection from a separate lock pool and only after winning the key
 * in process, so lock waiters can never starve the holder of the connection its inner commits need.
 * @example const storage = await postgresStorage({ connectionString: 'postgres://postgres@127.0.0.1:5432/app' })
 */
export const postgresStorage = async (options: PostgresStorageOptions): Promise<PostgresStorage> => {
  const schema = options.schema ?? defaultSchema
  // Every process on the schema must be given the same `indexes`: it says which collections have a table of their own.
  const tables = tablesOf(schema, Object.keys(options.indexes ?? storageSchema))
  const poolSize = options.poolSize ?? 10
  if (options.migrate !== false) await migrate({ ...options, schema })

  const work = new pg.Pool(connectionConfig(options, poolSize))
  const locks = new pg.Pool(connectionConfig(options, options.lockPoolSize ?? poolSize))
  // An idle connection that dies emits 'error' on its pool; the pool replaces it, nothing to crash for.
  work.on('error', () => {})
  locks.on('error', () => {})
  const clientConfig = connectionConfig(options)
  const committed = recordReader(work, tables)
  const listeners = eventListeners()
  const mutex = keyedMutex()
  const origin = randomUUID()

  const deliver = listeners.notify

  // Pruning rides on takes (no timer): the first take after `tokenBucketPruneMs` starts one DELETE
  // and does not wait for it. Only idle, full buckets go, so a failed or late prune costs nothing.
  const pruneMs = options.tokenBucketPruneMs ?? 60_000
  let prunedAt = Date.now()
  let pruning: Promise<unknown> | undefined
  const maybePrune = () => {
    if (pruning || Date.now() - prunedAt < pruneMs) return
    prunedAt = Date.now()
    pruning = pruneTokenBuckets(work, tables.rateBuckets)
      .catch(() => {})
      .finally(() => {
        pruning = undefined
      })
  }

  const readRanges = async (ranges: readonly SeqRange[]): Promise<StoredEvent[]> => {
    const found: StoredEvent[] = []
    for (const [stream, first, last] of ranges) {
      const { rows } = await work.query<EventRow>(
        `SELECT stream, seq, id, type, timestamp, data::text AS data FROM ${tables.events} ` +
          'WHERE stream = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq',
        [stream, first, last],
      )
      found.push(...rows.map(toStoredEvent))
    }
    return found
  }

  const events = eventListener({
    config: clientConfig,
    channel: tables.channel,
    origin,
    read: readRanges,
    deliver,
    wanted: () => listeners.size > 0,
  })
  try {
    await events.start()
  } catch (error) {
    await Promise.all([work.end(), locks.end()])
    throw error
  }

  /** Runs `fn` over buffered writes, then commits them on `client` (inside BEGIN), or on a work connection. */
  const run = async <T>(fn: (tx: StorageTx) => Promise<T>, client?: pg.PoolClient): Promise<T> => {
    const unit = bufferedTransaction(committed)
    let result: T
    try {
      result = await fn(unit.tx)
    } finally {
      unit.finish()
    }
    if (unit.writes().length === 0 && unit.events().length === 0) {
      if (client) await client.query('COMMIT')
      return result
    }
    const connection = client ?? (await work.connect())
    let stored: StoredEvent[]
    let broken: Error | undefined
    try {
      if (!client) await connection.query('BEGIN')
      stored = await applyCommit(connection, tables, unit, origin)
      await connection.query('COMMIT')
    } catch (error) {
      await connection.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError
      })
      throw error
    } finally {
      // A connection that could not even roll back is not handed to the next caller.
      if (!client) connection.release(broken)
    }
    if (stored.length > 0) {
      for (const event of stored) events.saw(event.stream, event.seq)
      deliver(stored)
    }
    return result
  }

  const keyed = async <T>(keys: readonly string[], fn: (tx: StorageTx) => Promise<T>): Promise<T> => {
    const sorted = [...new Set(keys)].sort()
    // In process first: at most one local caller per key ever waits in Postgres, holding a connection.
    const release = await mutex.lockAll(sorted)
    try {
      const client = await locks.connect()
      let broken: Error | undefined
      try {
        await client.query('BEGIN')
        for (const key of sorted)
          await client.query('SELECT pg_advisory_xact_lock($1)', [lockId(schema, 'tx', key)])
        // `run` commits on this client, so the writes and the unlock become visible together.
        return await run(fn, client)
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError
        })
        throw error
      } finally {
        // A connection whose ROLLBACK failed may still hold locks; destroy it rather than reuse it.
        client.release(broken)
      }
    } finally {
      release()
    }
  }

  return {
    name: options.name ?? 'postgres',
    schema,
    capabilities: {
      durable: true,
      crossProcessLocks: true,
      crossProcessEvents: true,
      claim: true,
      leaderLocks: true,
      sharedTokenBuckets: true,
    },
    get: committed.get as PostgresStorage['get'],
    query: committed.query as PostgresStorage['query'],
    count: committed.count,
    transaction(keys, fn) {
      return keys.length === 0 ? run(fn) : keyed(keys, fn)
    },
    async readEvents(stream, options = {}) {
      const { text, values } = eventsQuery(tables, stream, options)
      const { rows } = await work.query<EventRow>(text, values)
      return rows.map(toStoredEvent)
    },
    onEvents: listeners.add,
    async close() {
      listeners.clear()
      await pruning
      await events.close()
      await Promise.all([work.end(), locks.end()])
    },
    claim: (collection, claimOptions) => claimRecords(work, tables.of(collection), collection, claimOptions),
    tryAdvisoryLock: (name) => tryAdvisoryLock(clientConfig, schema, name),
    // Core's name for the same lock: startTracker elects one tracker per chain with it.
    tryLeaderLock: (name) => tryAdvisoryLock(clientConfig, schema, name),
    takeToken(key, limit) {
      maybePrune()
      return takeToken(work, tables.rateBuckets, key, limit)
    },
    withLeaderLock: (name, fn, leaderOptions) =>
      withLeaderLock(clientConfig, schema, name, fn, leaderOptions),
    async explainReadEvents(stream, options) {
      const { text, values } = eventsQuery(tables, stream, options)
      const { rows } = await work.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values)
      return rows.map((row) => row['QUERY PLAN'])
    },
    async explainQuery(collection, query) {
      const { text, values } = compileQuery(tables.of(collection), query)
      const { rows } = await work.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values)
      return rows.map((row) => row['QUERY PLAN'])
    },
  }
}
