import type { QueryOptions, Scalar } from '@agentwallet/core'
import { fieldSql } from './fieldSql.js'
import { collectionTable } from './sqlText.js'

/** An SQL fragment and the values bound to its `?` placeholders, in order. */
export type SqlPart = { sql: string; params: unknown[] }

const never: SqlPart = { sql: '0', params: [] }

/** The rank and SQL value queryRecords' range compares a bound as; booleans are 1/0 in SQLite. */
const rankedBound = (bound: Scalar): { rank: number; value: unknown } | undefined => {
  if (typeof bound === 'string') return { rank: 4, value: bound }
  if (typeof bound === 'number') return { rank: 2, value: bound }
  if (typeof bound === 'boolean') return { rank: 1, value: bound ? 1 : 0 }
  return undefined
}

const equality = (field: string, wanted: Scalar | readonly Scalar[]): SqlPart => {
  const list: readonly Scalar[] = Array.isArray(wanted) ? wanted : [wanted as Scalar]
  if (field === 'id') {
    // Ids are strings in their own column, so only string candidates can match.
    const ids = list.filter((item): item is string => typeof item === 'string')
    if (ids.length === 0) return never
    return { sql: `id IN (${ids.map(() => '?').join(', ')})`, params: ids }
  }
  if (list.length === 0) return never
  const keys = [...new Set(list.map((item) => JSON.stringify(item)))]
  const key = fieldSql(field).key
  if (keys.length === 1) return { sql: `${key} = ?`, params: keys }
  return { sql: `${key} IN (${keys.map(() => '?').join(', ')})`, params: keys }
}

const rangeBound = (field: string, op: '>=' | '<', bound: Scalar): SqlPart => {
  const ranked = rankedBound(bound)
  if (!ranked) return never
  if (field === 'id') return ranked.rank === 4 ? { sql: `id ${op} ?`, params: [ranked.value] } : never
  const { rank, value } = fieldSql(field)
  // Only values of the bound's own type are in range: the rank term says so and lets an index seek.
  return { sql: `${rank} = ${ranked.rank} AND ${value} ${op} ?`, params: [ranked.value] }
}

/**
 * The WHERE clause of a query on one collection's table: equality / IN, and the range.
 * @example compileWhere({ where: { walletId: 'w1' } }).sql
 */
export const compileWhere = (options: Pick<QueryOptions, 'where' | 'range'> = {}): SqlPart => {
  const parts: SqlPart[] = [{ sql: '1', params: [] }]
  for (const [field, wanted] of Object.entries(options.where ?? {})) parts.push(equality(field, wanted))
  const range = options.range
  if (range?.gte !== undefined) parts.push(rangeBound(range.field, '>=', range.gte))
  if (range?.lt !== undefined) parts.push(rangeBound(range.field, '<', range.lt))
  return { sql: parts.map((part) => part.sql).join(' AND '), params: parts.flatMap((part) => part.params) }
}

/**
 * The ORDER BY clause matching queryRecords: nulls first, then by type, then value, ties by id.
 * @example compileOrder({ orderBy: 'createdAt', order: 'desc' })
 */
export const compileOrder = (options: Pick<QueryOptions, 'orderBy' | 'order'> = {}): string => {
  const direction = options.order === 'desc' ? 'DESC' : 'ASC'
  const field = options.orderBy ?? 'id'
  if (field === 'id') return `id ${direction}`
  const { rank, value } = fieldSql(field)
  return `${rank} ${direction}, ${value} ${direction}, id ${direction}`
}

/**
 * A full SELECT of `data` for a query, with LIMIT and OFFSET as queryRecords slices them.
 * @example compileQuery('transactions', { where: { walletId }, orderBy: 'createdAt', order: 'desc', limit: 50 })
 */
export const compileQuery = (collection: string, options: QueryOptions = {}): SqlPart => {
  const where = compileWhere(options)
  const offset = Math.max(0, Math.floor(options.offset ?? 0))
  // SQLite reads a negative LIMIT as "no limit".
  const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit))
  return {
    sql: `SELECT data FROM ${collectionTable(collection)} WHERE ${where.sql} ORDER BY ${compileOrder(options)} LIMIT ? OFFSET ?`,
    params: [...where.params, limit, offset],
  }
}
