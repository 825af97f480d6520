import type { Storage, StorageTx, UnsyncedAccess } from './types.js'

/**
 * The storage as core writes through it: every record of `collections` put or inserted gets a fresh
 * `writeId`, whatever the caller passed (a record spread from an older read carries the old one), so
 * two reads with the same `writeId` hold the same write of the record, and a reader can tell that a
 * record is unchanged without comparing it field by field (the audit trail's counted spends). Every
 * other member is the adapter's own, called on the adapter.
 * @example const storage = withWriteIds(sqliteStorage({ filename }), ['transactions'], () => randomUUID())
 */
export function withWriteIds(storage: Storage, collections: readonly string[], newId: () => string): Storage {
  const stamped = new Set(collections)
  const stamp = <R>(collection: string, record: R): R =>
    stamped.has(collection) ? { ...record, writeId: newId() } : record
  const stamping = (tx: StorageTx): StorageTx => ({
    get: (collection, id) => tx.get(collection, id),
    query: (collection, options) => tx.query(collection, options),
    count: (collection, options) => tx.count(collection, options),
    insert: (collection, record) => tx.insert(collection, stamp(collection, record)),
    put: (collection, record) => tx.put(collection, stamp(collection, record)),
    delete: (collection, id) => tx.delete(collection, id),
    appendEvent: (stream, event) => tx.appendEvent(stream, event),
  })
  const transaction: Storage['transaction'] = (keys, fn) =>
    storage.transaction(keys, (tx) => fn(stamping(tx)))
  const unsynced: UnsyncedAccess | undefined = storage.unsynced && {
    reader: storage.unsynced.reader,
    commit: (fn) => storage.unsynced!.commit((tx) => fn(stamping(tx))),
    synced: () => storage.unsynced!.synced(),
  }
  // Methods are called on the adapter (a class's private fields need it as `this`), each bound once
  // per function: one replaced on the adapter later (a spy, a patch) is bound and used in its turn.
  const bound = new WeakMap<(...args: never[]) => unknown, unknown>()
  return new Proxy(storage, {
    get(target, property) {
      if (property === 'transaction') return transaction
      if (property === 'unsynced') return unsynced
      const value: unknown = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      if (!bound.has(value as never)) bound.set(value as never, value.bind(target))
      return bound.get(value as never)
    },
  })
}
