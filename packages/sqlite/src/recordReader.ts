import type { QueryOptions } from '@agentwallet/core'
import type { Statement } from 'better-sqlite3'
import { compileQuery, compileWhere } from './compileQuery.js'

/** Committed records as JSON text: parsing is left to the caller, so every caller gets its own copy. */
export type RecordReader = {
  get(collection: string, id: string): string | undefined
  query(collection: string, options?: QueryOptions): string[]
  count(collection: string, options?: Pick<QueryOptions, 'where' | 'range'>): number
}

/**
 * Reads committed records with the query compiled to SQL.
 * @example recordReader(statementCache(db)).query('wallets', { where: { tenantId } })
 */
export const recordReader = (prepare: (sql: string) => Statement): RecordReader => ({
  get(collection, id) {
    const row = prepare('SELECT data FROM records WHERE collection = ? AND id = ?').get(collection, id) as
      | { data: string }
      | undefined
    return row?.data
  },
  query(collection, options) {
    const { sql, params } = compileQuery(collection, options)
    return prepare(sql)
      .pluck()
      .all(...params) as string[]
  },
  count(collection, options) {
    const { sql, params } = compileWhere(collection, options)
    return prepare(`SELECT count(*) FROM records WHERE ${sql}`)
      .pluck()
      .get(...params) as number
  },
})
