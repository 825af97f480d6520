import type { QueryOptions, StoredRecord } from '@agentwallet/core'
import type pg from 'pg'
import { compileCount, compileQuery } from './compileQuery.js'
import type { Tables } from './tables.js'

/** A pool or a client: anything that runs one query. */
export type Queryable = Pick<pg.Pool, 'query'>

/** Committed records; every call parses fresh objects, so callers never share one. */
export type RecordReader = {
  get(collection: string, id: string): Promise<StoredRecord | undefined>
  query(collection: string, options?: QueryOptions): Promise<StoredRecord[]>
  count(collection: string, options?: Pick<QueryOptions, 'where' | 'range'>): Promise<number>
}

/**
 * Reads committed records, each collection from its table, with the query compiled to SQL.
 * @example await recordReader(pool, tables).query('wallets', { where: { tenantId } })
 */
export const recordReader = (db: Queryable, tables: Tables): RecordReader => ({
  async get(collection, id) {
    const { text, values } = compileQuery(tables.of(collection), { where: { id }, limit: 1 })
    const { rows } = await db.query<{ data: StoredRecord }>(text, values)
    return rows[0]?.data
  },
  async query(collection, options) {
    const { text, values } = compileQuery(tables.of(collection), options)
    const { rows } = await db.query<{ data: StoredRecord }>(text, values)
    return rows.map((row) => row.data)
  },
  async count(collection, options) {
    const { text, values } = compileCount(tables.of(collection), options)
    const { rows } = await db.query<{ n: number }>(text, values)
    return rows[0]!.n
  },
})
