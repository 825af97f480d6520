import type { Filter, Scalar, StoredRecord } from './types.js'

/**
 * One collection of a memory storage: its records by id, and an equality index on each field
 * `indexed` names (core's `storageSchema`), so a filtered read or a uniqueness check looks up the
 * matching ids instead of scanning every record.
 */
export type MemoryCollection = {
  readonly records: ReadonlyMap<string, StoredRecord>
  set(record: StoredRecord): void
  delete(id: string): void
  /** Records that may match `where` (a superset: callers still filter); all records when no field is indexed. */
  candidates(where: Filter | undefined): Iterable<StoredRecord>
}

type FieldIndex = Map<Scalar, Set<string>>

// A missing field is indexed as null, since `where: { field: null }` matches it (see matchesQuery).
const indexKey = (value: unknown): Scalar | undefined => {
  if (value === undefined || value === null) return null
  return typeof value === 'object' ? undefined : (value as Scalar)
}

/**
 * A memory collection indexing the fields `indexed`.
 * @example const wallets = memoryCollection(['tenantId', 'address'])
 */
export function memoryCollection(indexed: readonly string[]): MemoryCollection {
  const records = new Map<string, StoredRecord>()
  const indexes = new Map<string, FieldIndex>(indexed.map((field) => [field, new Map()]))

  const unindex = (record: StoredRecord) => {
    for (const [field, index] of indexes) {
      const key = indexKey(record[field])
      if (key === undefined) continue
      const ids = index.get(key)
      ids?.delete(record.id)
      if (ids?.size === 0) index.delete(key)
    }
  }

  // Without an index, `wanted` are ids.
  const lookup = (index: FieldIndex | undefined, wanted: Scalar | readonly Scalar[]): StoredRecord[] => {
    const found: StoredRecord[] = []
    for (const value of new Set(Array.isArray(wanted) ? wanted : [wanted as Scalar])) {
      for (const id of index?.get(value) ?? [value]) {
        const record = typeof id === 'string' ? records.get(id) : undefined
        if (record) found.push(record)
      }
    }
    return found
  }

  return {
    records,
    set(record) {
      const previous = records.get(record.id)
      if (previous) unindex(previous)
      records.set(record.id, record)
      for (const [field, index] of indexes) {
        const key = indexKey(record[field])
        if (key === undefined) continue
        let ids = index.get(key)
        if (!ids) {
          ids = new Set()
          index.set(key, ids)
        }
        ids.add(record.id)
      }
    },
    delete(id) {
      const previous = records.get(id)
      if (!previous) return
      unindex(previous)
      records.delete(id)
    },
    candidates(where) {
      for (const [field, wanted] of Object.entries(where ?? {})) {
        // An `undefined` slipped past the types matches records without the field; leave it to the filter.
        if (wanted === undefined) continue
        if (field === 'id') return lookup(undefined, wanted)
        const index = indexes.get(field)
        if (index) return lookup(index, wanted)
      }
      return records.values()
    },
  }
}
