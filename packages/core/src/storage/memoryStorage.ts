import { BaseError } from '../errors/baseError.js'
import { eventListeners } from './eventListeners.js'
import { keyedMutex } from './keyedMutex.js'
import { queryRecords } from './queryRecords.js'
import type { EventInput, QueryOptions, Storage, StorageTx, StoredEvent, StoredRecord } from './types.js'

export type MemoryStorageOptions = {
  /** Shown in logs and errors. Default `memory`. */
  name?: string | undefined
  /** Start from another memory storage's committed state (see `MemoryStorage.snapshot`). */
  snapshot?: MemorySnapshot | undefined
}

/** The committed records and event logs of a memory storage, deep-copied. */
export type MemorySnapshot = {
  collections: Array<[string, StoredRecord[]]>
  streams: Array<[string, StoredEvent[]]>
}

export type MemoryStorage = Storage & {
  /**
   * What a durable storage would hold if the process died now: committed state only, without
   * locks or listeners. A new storage from it plays "the same database after a crash" in tests.
   */
  snapshot(): MemorySnapshot
}

type Collection = Map<string, StoredRecord>
/** A buffered write: the new record, or null for a delete. */
type Writes = Map<string, Map<string, StoredRecord | null>>
/** An insert to re-check at commit; `replacesDeleted` when the same transaction deleted the id first. */
type Insert = { name: string; id: string; replacesDeleted: boolean }

const clone = <T>(value: T): T => structuredClone(value)

/**
 * A Storage held in process memory: for tests, examples and single-process embedding without
 * durability. Locks are exclusive within this process only.
 * @example const storage = memoryStorage(); await storage.transaction(['k'], async (tx) => tx.put('c', { id: '1' }))
 */
export const memoryStorage = (options: MemoryStorageOptions = {}): MemoryStorage => {
  const collections = new Map<string, Collection>(
    (options.snapshot?.collections ?? []).map(([name, records]) => [
      name,
      new Map(clone(records).map((record) => [record.id, record])),
    ]),
  )
  const streams = new Map<string, StoredEvent[]>(clone(options.snapshot?.streams ?? []))
  const listeners = eventListeners()
  const mutex = keyedMutex()

  const collection = (name: string): Collection => {
    let found = collections.get(name)
    if (!found) {
      found = new Map()
      collections.set(name, found)
    }
    return found
  }

  /** Committed records, overlaid with a transaction's buffered writes when given. */
  const view = (name: string, writes?: Writes): Collection => {
    const pending = writes?.get(name)
    const base = collection(name)
    if (!pending) return base
    const merged = new Map(base)
    for (const [id, record] of pending) {
      if (record) merged.set(id, record)
      else merged.delete(id)
    }
    return merged
  }

  /** One record as a transaction sees it, without copying the collection. */
  const lookup = (name: string, id: string, writes?: Writes): StoredRecord | undefined => {
    const pending = writes?.get(name)?.get(id)
    return pending === undefined ? collection(name).get(id) : (pending ?? undefined)
  }

  const reader = (writes?: Writes) => ({
    async get<T extends StoredRecord>(name: string, id: string) {
      const record = lookup(name, id, writes)
      return record === undefined ? undefined : (clone(record) as T)
    },
    async query<T extends StoredRecord>(name: string, query?: QueryOptions) {
      return clone(queryRecords(view(name, writes).values(), query)) as T[]
    },
    async count(name: string, query?: Pick<QueryOptions, 'where' | 'range'>) {
      return queryRecords(view(name, writes).values(), { where: query?.where, range: query?.range }).length
    },
  })

  const conflict = (name: string, id: string) =>
    new BaseError('storage_conflict', `Record "${id}" already exists in "${name}"`, {
      details: { collection: name, id },
    })

  /** Applies a finished transaction's writes and events at once; returns the events as stored. */
  const commit = (writes: Writes, inserts: Insert[], events: Array<[string, EventInput]>) => {
    // An unlocked transaction may have inserted the same id since; check before applying anything.
    for (const { name, id, replacesDeleted } of inserts) {
      if (!replacesDeleted && collection(name).has(id)) throw conflict(name, id)
    }
    for (const [name, pending] of writes) {
      const target = collection(name)
      for (const [id, record] of pending) {
        if (record) target.set(id, record)
        else target.delete(id)
      }
    }
    const committed: StoredEvent[] = []
    for (const [stream, event] of events) {
      let log = streams.get(stream)
      if (!log) {
        log = []
        streams.set(stream, log)
      }
      const stored: StoredEvent = { ...event, stream, seq: log.length + 1 }
      log.push(stored)
      committed.push(stored)
    }
    return committed
  }

  const run = async <T>(fn: (tx: StorageTx) => Promise<T>): Promise<T> => {
    const writes: Writes = new Map()
    const inserts: Insert[] = []
    const events: Array<[string, EventInput]> = []
    let open = true
    // A tx captured and used after its transaction ended would write nowhere; fail loudly instead.
    const ensureOpen = () => {
      if (!open) throw new BaseError('internal', 'The transaction has already finished')
    }
    const pending = (name: string) => {
      ensureOpen()
      let found = writes.get(name)
      if (!found) {
        found = new Map()
        writes.set(name, found)
      }
      return found
    }
    const read = reader(writes)
    const tx: StorageTx = {
      ...read,
      async insert(name, record) {
        const target = pending(name)
        if (lookup(name, record.id, writes)) throw conflict(name, record.id)
        inserts.push({ name, id: record.id, replacesDeleted: target.get(record.id) === null })
        target.set(record.id, clone(record))
      },
      async put(name, record) {
        pending(name).set(record.id, clone(record))
      },
      async delete(name, id) {
        const existed = lookup(name, id, writes) !== undefined
        pending(name).set(id, null)
        return existed
      },
      appendEvent(stream, event) {
        ensureOpen()
        events.push([stream, clone(event)])
      },
    }
    try {
      const result = await fn(tx)
      const committed = commit(writes, inserts, events)
      open = false
      listeners.notify(committed)
      return result
    } finally {
      open = false
    }
  }

  return {
    name: options.name ?? 'memory',
    capabilities: { durable: false, crossProcessLocks: false, crossProcessEvents: false },
    ...reader(),
    async transaction(keys, fn) {
      const release = await mutex.lockAll(keys)
      try {
        return await run(fn)
      } finally {
        release()
      }
    },
    async readEvents(stream, options = {}) {
      const after = options.after ?? 0
      const log = streams.get(stream) ?? []
      const found = log.filter((event) => event.seq > after)
      return clone(options.limit === undefined ? found : found.slice(0, Math.max(0, options.limit)))
    },
    onEvents: listeners.add,
    async close() {
      listeners.clear()
    },
    snapshot: () => ({
      collections: [...collections].map(([name, records]) => [name, clone([...records.values()])]),
      streams: clone([...streams]),
    }),
  }
}
