import { BaseError } from '../errors/baseError.js'
import { eventListeners } from './eventListeners.js'
import { keyedMutex } from './keyedMutex.js'
import { type MemoryCollection, memoryCollection } from './memoryCollection.js'
import { queryRecords } from './queryRecords.js'
import {
  type EventInput,
  type Filter,
  type QueryOptions,
  type ReadEventsOptions,
  type Storage,
  type StorageTx,
  type StoredEvent,
  type StoredRecord,
  storageSchema,
} from './types.js'

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
  const collections = new Map<string, MemoryCollection>()
  const streams = new Map<string, StoredEvent[]>(clone(options.snapshot?.streams ?? []))
  const listeners = eventListeners()
  const mutex = keyedMutex()

  const collection = (name: string): MemoryCollection => {
    let found = collections.get(name)
    if (!found) {
      found = memoryCollection(storageSchema[name]?.indexes ?? [])
      collections.set(name, found)
    }
    return found
  }
  for (const [name, records] of clone(options.snapshot?.collections ?? [])) {
    for (const record of records) collection(name).set(record)
  }

  /**
   * The records that may match `where`, as a transaction sees them: committed candidates (from an
   * index when a filtered field has one) less those its buffered writes replace, plus its own.
   */
  function* candidates(name: string, where: Filter | undefined, writes?: Writes): Iterable<StoredRecord> {
    const pending = writes?.get(name)
    for (const record of collection(name).candidates(where)) if (!pending?.has(record.id)) yield record
    for (const record of pending?.values() ?? []) if (record) yield record
  }

  /** One record as a transaction sees it. */
  const lookup = (name: string, id: string, writes?: Writes): StoredRecord | undefined => {
    const pending = writes?.get(name)?.get(id)
    return pending === undefined ? collection(name).records.get(id) : (pending ?? undefined)
  }

  const reader = (writes?: Writes) => ({
    async get<T extends StoredRecord>(name: string, id: string) {
      const record = lookup(name, id, writes)
      return record === undefined ? undefined : (clone(record) as T)
    },
    async query<T extends StoredRecord>(name: string, query?: QueryOptions) {
      return clone(queryRecords(candidates(name, query?.where, writes), query)) as T[]
    },
    async count(name: string, query?: Pick<QueryOptions, 'where' | 'range'>) {
      return queryRecords(candidates(name, query?.where, writes), {
        where: query?.where,
        range: query?.range,
      }).length
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
      if (!replacesDeleted && collection(name).records.has(id)) throw conflict(name, id)
    }
    for (const [name, pending] of writes) {
      const target = collection(name)
      for (const [id, record] of pending) {
        if (record) target.set(record)
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
      const { keys, ...rest } = event
      const stored: StoredEvent = { ...rest, stream, seq: log.length + 1 }
      // Kept beside the event for `readEvents(stream, { key })`; never read back.
      log.push(keys ? ({ ...stored, keys } as StoredEvent) : stored)
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
      const log = (streams.get(stream) ?? []) as Array<StoredEvent & Pick<EventInput, 'keys'>>
      const found = log.filter((event) => selects(event, options)).map(({ keys: _keys, ...event }) => event)
      return clone(options.limit === undefined ? found : found.slice(0, Math.max(0, options.limit)))
    },
    onEvents: listeners.add,
    async close() {
      listeners.clear()
    },
    snapshot: () => ({
      collections: [...collections].map(([name, { records }]) => [name, clone([...records.values()])]),
      streams: clone([...streams]),
    }),
  }
}

/** Whether a stored event is one `readEvents` answers for `options` (memory has no index: it filters). */
function selects(event: StoredEvent & Pick<EventInput, 'keys'>, options: ReadEventsOptions): boolean {
  if (event.seq <= (options.after ?? 0)) return false
  if (options.key !== undefined && !event.keys?.includes(options.key)) return false
  if (options.from !== undefined && event.timestamp < options.from) return false
  return options.to === undefined || event.timestamp < options.to
}
