import type { CollectionRecords } from '../collections.js'

/**
 * The Storage port. A small required surface: records in named collections, queries on their
 * top-level fields, an event log per stream, and ONE atomicity primitive, `transaction(keys, fn)`.
 * Core builds its typed repositories on top (storage/repositories.ts), so an adapter stays small.
 *
 * Values are JSON documents: strings, finite numbers, booleans, null, arrays and objects.
 * Amounts are stored as decimal strings of base units, never numbers.
 */

/** A stored document. Every record has a string `id`, unique within its collection. */
export type StoredRecord = { id: string; [field: string]: unknown }

// The one import from above storage, and type-only: the record type of each collection, so reads
// and writes are typed by collection name. (Declaration merging would avoid it, but the bundled
// .d.ts drops a merge into a relative module, and consumers of the built package lost the types.)
export type { CollectionRecords }

/** The record type a collection holds: its entry in {@link CollectionRecords}, else `StoredRecord`. */
export type RecordOf<C extends string> = C extends keyof CollectionRecords
  ? CollectionRecords[C]
  : StoredRecord

export type Scalar = string | number | boolean | null

/** Equality on a top-level field, or membership when the value is an array. */
export type Filter = Record<string, Scalar | readonly Scalar[]>

export type QueryOptions = {
  where?: Filter | undefined
  /** A half-open range on one top-level field: gte <= value < lt. Strings compare as strings. */
  range?: { field: string; gte?: Scalar | undefined; lt?: Scalar | undefined } | undefined
  /** Field to order by (default `id`); ties are broken by `id` in the same direction. */
  orderBy?: string | undefined
  order?: 'asc' | 'desc' | undefined
  limit?: number | undefined
  offset?: number | undefined
}

/**
 * An event as written to the log. `seq` is assigned by the storage at commit. `keys`: what a reader
 * may select the stream's events by (`readEvents(stream, { key })`), indexed by the storage, not
 * read back.
 */
export type EventInput = {
  id: string
  type: string
  timestamp: string
  data: unknown
  keys?: readonly string[] | undefined
}
export type StoredEvent = Omit<EventInput, 'keys'> & { stream: string; seq: number }

/**
 * Which events of a stream `readEvents` answers: seq > `after`, at most `limit`, and, when given,
 * only those appended with `key` among their keys and whose `timestamp` (ISO 8601, UTC) is in
 * [`from`, `to`). Storages answer `key` from an index, never by reading the stream.
 */
export type ReadEventsOptions = {
  after?: number | undefined
  limit?: number | undefined
  key?: string | undefined
  from?: string | undefined
  to?: string | undefined
}

export interface StorageReader {
  get<C extends string>(collection: C, id: string): Promise<RecordOf<C> | undefined>
  query<C extends string>(collection: C, options?: QueryOptions): Promise<RecordOf<C>[]>
  count(collection: string, options?: Pick<QueryOptions, 'where' | 'range'>): Promise<number>
}

export interface StorageTx extends StorageReader {
  /** Adds a record; rejects with code `storage_conflict` when the id exists. */
  insert<C extends string>(collection: C, record: RecordOf<C>): Promise<void>
  /** Adds or replaces a record. */
  put<C extends string>(collection: C, record: RecordOf<C>): Promise<void>
  delete(collection: string, id: string): Promise<boolean>
  /**
   * Appends an event to a stream's log. Its `seq` is assigned at commit, in commit order, so a
   * reader that has seen seq N has seen every committed event below N.
   */
  appendEvent(stream: string, event: EventInput): void
}

export type StorageCapabilities = {
  /** Survives a process restart. */
  durable: boolean
  /** `transaction` locks hold across processes sharing the storage (e.g. Postgres advisory locks). */
  crossProcessLocks: boolean
  /** `onEvents` also reports events committed by other processes. */
  crossProcessEvents: boolean
  /** `tryLeaderLock` elects one holder per name across processes (e.g. Postgres advisory locks). */
  leaderLocks?: boolean | undefined
  /** `takeToken` keeps token buckets every process sharing the storage draws from (e.g. one Postgres row per key). */
  sharedTokenBuckets?: boolean | undefined
}

/** A token bucket's shape: `capacity` tokens at most (the burst), refilled at `refillPerSecond`. */
export type TokenBucketLimit = { capacity: number; refillPerSecond: number }

/** The outcome of one take: a token, or how many whole seconds (≥ 1) until the next one. */
export type TokenTake = { ok: true } | { ok: false; retryAfterSeconds: number }

/** A named lock held until `release()`, or until `signal` aborts (e.g. its connection dropped). */
export type LeaderLock = {
  readonly signal: AbortSignal
  release(): Promise<void>
}

export type EventsListener = (events: StoredEvent[]) => void

export interface Storage extends StorageReader {
  readonly name: string
  readonly capabilities: StorageCapabilities
  /**
   * Runs `fn` holding exclusive locks on `keys`; the writes made through `tx` commit together
   * when `fn` resolves, and none of them do when it throws. Callers on the same key wait their turn.
   * Reads through `tx` see the transaction's own writes.
   *
   * Transactions do not nest: a `transaction([], ...)` started inside another's `fn` is a separate
   * unit that commits on its own. Core relies on this to hold a wallet lock across several
   * durable steps (persist intent → sign → persist signed tx → broadcast); see `withLock`.
   */
  transaction<T>(keys: readonly string[], fn: (tx: StorageTx) => Promise<T>): Promise<T>
  /** Events of one stream with seq > `after`, ascending, selected by key and time (`ReadEventsOptions`). */
  readEvents(stream: string, options?: ReadEventsOptions): Promise<StoredEvent[]>
  /**
   * Calls `listener` with every batch of committed events, after the commit. Returns an unsubscribe.
   * A listener's throw never fails the commit (it is done): it goes to `onError`, and with none it is
   * thrown again outside the commit, as an uncaught exception, so it is never lost.
   */
  onEvents(listener: EventsListener, onError?: (error: unknown) => void): () => void
  /**
   * Optional (with `capabilities.leaderLocks`): takes the named lock if no process holds it, else
   * `undefined`. Core uses it so one process, not every replica, runs a chain's tracker; single-process
   * storages leave it out. Correctness never depends on it, only avoiding duplicate work does.
   */
  tryLeaderLock?(name: string): Promise<LeaderLock | undefined>
  /**
   * Optional (with `capabilities.sharedTokenBuckets`): takes one token from the bucket `key`, refilled
   * by the storage's own clock, atomically across every process on the storage. The HTTP edge limits
   * requests with it so N replicas enforce one limit, not N; single-process storages leave it out.
   */
  takeToken?(key: string, limit: TokenBucketLimit): Promise<TokenTake>
  /**
   * Optional, for a storage that syncs a commit to disk after applying it (SQLite's group commit):
   * reads and commits that do not wait for that sync, so a lock holder can let its successor in
   * before its commit is on disk. Storages whose commits are on disk once applied leave it out.
   */
  unsynced?: UnsyncedAccess | undefined
  close(): Promise<void>
}

/**
 * What a lock holder reads and commits without waiting for the disk. A crash before the sync loses
 * such a commit and every later one (the log is synced in order), so the rule is: whatever leaves the
 * process on the strength of these reads or commits (a broadcast, an answer) waits for `synced` first.
 */
export type UnsyncedAccess = {
  /** Reads of the applied state, commits not yet on disk included. */
  reader: StorageReader
  /**
   * Commits `fn`'s writes as `transaction([], fn)` does, and resolves once later reads and
   * transactions see them; `synced` resolves once they are on disk (events go to listeners then).
   */
  commit<T>(fn: (tx: StorageTx) => Promise<T>): Promise<{ result: T; synced: Promise<void> }>
  /** Resolves once every commit applied so far is on disk. */
  synced(): Promise<void>
}

/**
 * Collections core uses and the fields it filters or orders by; adapters with indexes (SQL)
 * create them from this table. Unknown collections must still work, unindexed.
 */
export const storageSchema: Record<string, { indexes: readonly string[] }> = {
  tenants: { indexes: [] },
  api_keys: { indexes: ['tenantId', 'hash'] },
  wallets: { indexes: ['tenantId', 'address', 'ownerId', 'createdAt'] },
  vault_keys: { indexes: [] },
  transactions: { indexes: ['walletId', 'status', 'hash', 'createdAt', 'chain', 'to', 'finality'] },
  approvals: { indexes: ['tenantId', 'status', 'transactionId', 'expiresAt', 'requestedBy', 'createdAt'] },
  policies: { indexes: ['tenantId'] },
  nonces: { indexes: [] },
  idempotency: { indexes: [] },
  identities: { indexes: ['tenantId', 'walletAddress', 'agentId'] },
  ens_names: { indexes: ['tenantId', 'walletId', 'status', 'name'] },
  swaps: { indexes: ['tenantId', 'status', 'createdAt'] },
  x402_requests: { indexes: [] },
  multisig_wallets: { indexes: ['tenantId', 'address'] },
  multisig_proposals: { indexes: ['tenantId', 'safeAddress', 'safeTxHash', 'status', 'createdAt'] },
  webhook_subscriptions: { indexes: ['tenantId', 'status', 'createdAt'] },
  webhook_deliveries: {
    indexes: ['tenantId', 'subscriptionId', 'status', 'nextAttemptAt', 'seq', 'createdAt'],
  },
  webhook_delivery_batches: { indexes: ['tenantId', 'subscriptionId', 'lastAt'] },
  webhook_retired_counts: { indexes: ['tenantId'] },
  allowance_grants: { indexes: ['walletId'] },
  user_operations: { indexes: ['tenantId'] },
  screening_lists: { indexes: ['tenantId', 'shared'] },
  screening_entries: { indexes: ['listId', 'key', 'tenantId', 'addedAt'] },
}

/** An appended event as a SQL storage buffers it: its payload copied to JSON text (null when `data` is undefined). */
export type PendingEvent = Omit<EventInput, 'data'> & { stream: string; data: string | null }
