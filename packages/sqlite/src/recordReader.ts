import type { QueryOptions } from '@agentwallet/core'
import type { Statement } from 'better-sqlite3'
import type { CollectionTables } from './collectionTables.js'
import { compileQuery, compileWhere } from './compileQuery.js'
import { collectionTable } from './sqlText.js'

/** Committed records as JSON text: parsing is left to the caller, so every caller gets its own copy. */
export type RecordReader = {
  get(collection: string, id: string): string | undefined
  query(collection: string, options?: QueryOptions): string[]
  count(collection: string, options?: Pick<QueryOptions, 'where' | 'range'>): number
}

/**
 * Reads committed records with the query compiled to SQL, from each collection's own table; a
 * collection that has no table yet holds nothing.
 * @example recordReader(statementCache(db), collectionTables(db)).query('wallets', { where: { tenantId } })
 */
export const recordReader = (
  prepare: (sql: string) => Statement,
  tables: CollectionTables,
): RecordReader => ({
  get(collection, id) {
    if (!tables.has(collection)) return undefined
    return prepare(`SELECT data FROM ${collectionTable(collection)} WHERE id = ?`)
      .pluck()
      .get(id) as string | undefined
  },
  query(collection, options) {
    if (!tables.has(collection)) return []
    const { sql, params } = compileQuery(collection, options)
    return prepare(sql)
      .pluck()
      .all(...params) as string[]
  },
  count(collection, options) {
    if (!tables.has(collection)) return 0
    const { sql, params } = compileWhere(options)
    return prepare(`SELECT count(*) FROM ${collectionTable(collection)} WHERE ${sql}`)
      .pluck()
      .get(...params) as number
  },
})
