import type { QueryOptions, StoredRecord } from '@agentwallet/core'
import type pg from 'pg'
import { compileCount, compileQuery } from './compileQuery.js'

/** A pool or a client: anything that runs one query. */
export type Queryable = Pick<pg.Pool, 'query'>

/** Committed records; every call parses fresh objects, so callers never share one. */
export type RecordReader = {
  get(collection: string, id: string): Promise<StoredRecord | undefined>
  query(collection: string, options?: QueryOptions): Promise<StoredRecord[]>
  count(collection: string, options?: Pick<QueryOptions, 'where' | 'range'>): Promise<number>
}

/**
 * Reads committed records of `table` with the query compiled to SQL.
 * @example await recordReader(pool, '"agentwallet".records').query('wallets', { where: { tenantId } })
 */
export const recordReader = (db: Queryable, table: string): RecordReader => ({
  async get(collection, id) {
    const { rows } = await db.query<{ data: StoredRecord }>(
      `SELECT data FROM ${table} WHERE collection = $1 AND id = $2`,
      [collection, id],
    )
    return rows[0]?.data
  },
  async query(collection, options) {
    const { text, values } = compileQuery(table, collection, options)
    const { rows } = await db.query<{ data: StoredRecord }>(text, values)
    return rows.map((row) => row.data)
  },
  async count(collection, options) {
    const { text, values } = compileCount(table, collection, options)
    const { rows } = await db.query<{ n: number }>(text, values)
    return rows[0]!.n
  },
})
