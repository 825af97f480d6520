import type { QueryOptions, Scalar } from '@agentwallet/core'
import { fieldSql } from './fieldSql.js'
import { params as newParams, type Params, sqlString } from './sqlText.js'
import type { RecordSource } from './tables.js'

/** An SQL text and the values bound to its `$n` placeholders. */
export type SqlQuery = { text: string; values: unknown[] }

const never = 'false'

const equality = (field: string, wanted: Scalar | readonly Scalar[], p: Params): string => {
  const list: readonly Scalar[] = Array.isArray(wanted) ? wanted : [wanted as Scalar]
  if (field === 'id') {
    // Ids are strings in their own column, so only string candidates can match.
    const ids = [...new Set(list.filter((item): item is string => typeof item === 'string'))]
    if (ids.length === 0) return never
    return `id IN (${ids.map((id) => p.add(id)).join(', ')})`
  }
  if (list.length === 0) return never
  const keys = [...new Set(list.map((item) => JSON.stringify(item)))]
  const key = fieldSql(field).key
  if (keys.length === 1) return `${key} = ${p.add(keys[0])}::jsonb`
  return `${key} IN (${keys.map((item) => `${p.add(item)}::jsonb`).join(', ')})`
}

const rangeBound = (field: string, op: '>=' | '<', bound: Scalar, p: Params): string => {
  // queryRecords only lets values of the bound's own type into a range; a null bound matches nothing.
  if (field === 'id') return typeof bound === 'string' ? `id ${op} ${p.add(bound)}` : never
  const { rank, num, text } = fieldSql(field)
  if (typeof bound === 'string') return `${rank} = 4 AND ${num} IS NULL AND ${text} ${op} ${p.add(bound)}`
  if (typeof bound === 'number') return `${rank} = 2 AND ${num} ${op} ${p.add(bound)}::numeric`
  if (typeof bound === 'boolean') return `${rank} = 1 AND ${num} ${op} ${bound ? 1 : 0}`
  return never
}

/**
 * The WHERE condition of a query on one collection: its name in the shared table, equality / IN, and the range.
 * @example compileWhere({ table: '"aw"."c_transactions"' }, { where: { walletId: 'w1' } }, params())
 */
export const compileWhere = (
  source: RecordSource,
  options: Pick<QueryOptions, 'where' | 'range'> = {},
  p: Params = newParams(),
): string => {
  const parts = source.collection === undefined ? ['true'] : [`collection = ${sqlString(source.collection)}`]
  for (const [field, wanted] of Object.entries(options.where ?? {})) parts.push(equality(field, wanted, p))
  const range = options.range
  if (range?.gte !== undefined) parts.push(rangeBound(range.field, '>=', range.gte, p))
  if (range?.lt !== undefined) parts.push(rangeBound(range.field, '<', range.lt, p))
  return parts.join(' AND ')
}

/**
 * The ORDER BY list matching queryRecords: nulls first, then by type, then value, ties by id.
 * @example compileOrder({ orderBy: 'createdAt', order: 'desc' })
 */
export const compileOrder = (options: Pick<QueryOptions, 'orderBy' | 'order'> = {}): string => {
  const direction = options.order === 'desc' ? 'DESC' : 'ASC'
  const field = options.orderBy ?? 'id'
  if (field === 'id') return `id ${direction}`
  const { rank, num, text } = fieldSql(field)
  return [rank, num, text, 'id'].map((column) => `${column} ${direction}`).join(', ')
}

/**
 * A full SELECT of `data` for a query, with LIMIT and OFFSET as queryRecords slices them.
 * @example compileQuery(tables.of('transactions'), { where: { walletId }, orderBy: 'createdAt', order: 'desc', limit: 50 })
 */
export const compileQuery = (source: RecordSource, options: QueryOptions = {}): SqlQuery => {
  const p = newParams()
  const where = compileWhere(source, options, p)
  const offset = Math.max(0, Math.floor(options.offset ?? 0))
  const limit = options.limit === undefined ? 'ALL' : p.add(Math.max(0, Math.floor(options.limit)))
  const text = `SELECT data FROM ${source.table} WHERE ${where} ORDER BY ${compileOrder(options)} LIMIT ${limit} OFFSET ${p.add(offset)}`
  return { text, values: p.values }
}

/**
 * A count of the records a query's filter and range match.
 * @example compileCount(tables.of('wallets'), { where: { tenantId } })
 */
export const compileCount = (
  source: RecordSource,
  options: Pick<QueryOptions, 'where' | 'range'> = {},
): SqlQuery => {
  const p = newParams()
  const where = compileWhere(source, options, p)
  return { text: `SELECT count(*)::int AS n FROM ${source.table} WHERE ${where}`, values: p.values }
}
