import type { QueryOptions, Scalar, StoredRecord } from './types.js'

type Comparable = string | number | boolean

/** Orders two field values: numbers numerically, strings by UTF-16 code unit ("C" collation). */
export const compareValues = (a: unknown, b: unknown): number => {
  // Missing and null sort first in ascending order, so results are total and stable.
  const aNull = a === undefined || a === null
  const bNull = b === undefined || b === null
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? -1 : 1
  if (typeof a !== typeof b) return String(typeof a) < String(typeof b) ? -1 : 1
  const x = a as Comparable
  const y = b as Comparable
  return x < y ? -1 : x > y ? 1 : 0
}

const sameType = (value: unknown, bound: Scalar): boolean =>
  value !== undefined && value !== null && bound !== null && typeof value === typeof bound

const matchesScalar = (value: unknown, wanted: Scalar): boolean =>
  // A missing field equals null, as an SQL adapter's `IS NULL` on a JSON field would say.
  wanted === null ? value === null || value === undefined : value === wanted

/** True when `record` passes the `where` and `range` of `options`. */
export const matchesQuery = (
  record: StoredRecord,
  options: Pick<QueryOptions, 'where' | 'range'>,
): boolean => {
  for (const [field, wanted] of Object.entries(options.where ?? {})) {
    const value = record[field]
    const ok = Array.isArray(wanted)
      ? (wanted as readonly Scalar[]).some((item) => matchesScalar(value, item))
      : matchesScalar(value, wanted as Scalar)
    if (!ok) return false
  }
  const range = options.range
  if (range) {
    const value = record[range.field]
    if (range.gte !== undefined) {
      if (!sameType(value, range.gte) || compareValues(value, range.gte) < 0) return false
    }
    if (range.lt !== undefined) {
      if (!sameType(value, range.lt) || compareValues(value, range.lt) >= 0) return false
    }
  }
  return true
}

/**
 * Applies a query (filter, range, order, offset, limit) to records in memory.
 * @example queryRecords(all, { where: { status: ['queued', 'submitted'] }, orderBy: 'createdAt', limit: 50 })
 */
export const queryRecords = <T extends StoredRecord>(
  records: Iterable<T>,
  options: QueryOptions = {},
): T[] => {
  const field = options.orderBy ?? 'id'
  const direction = options.order === 'desc' ? -1 : 1
  const matched = [...records].filter((record) => matchesQuery(record, options))
  matched.sort((a, b) => direction * (compareValues(a[field], b[field]) || compareValues(a.id, b.id)))
  const offset = Math.max(0, options.offset ?? 0)
  const end = options.limit === undefined ? undefined : offset + Math.max(0, options.limit)
  return matched.slice(offset, end)
}
