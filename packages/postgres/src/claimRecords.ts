import { BaseError, type QueryOptions, type StoredRecord } from '@agentwallet/core'
import { compileOrder, compileWhere } from './compileQuery.js'
import type { Queryable } from './recordReader.js'
import { params } from './sqlText.js'
import type { RecordSource } from './tables.js'

export type ClaimOptions = Pick<QueryOptions, 'where' | 'range' | 'orderBy' | 'order'> & {
  /** At most this many records are claimed. */
  limit: number
  /**
   * Top-level fields merged into each claimed record in the same statement, e.g. a lease:
   * `{ status: 'delivering', nextAttemptAt: inThirtySeconds }`, so no other process claims it again.
   */
  patch: Record<string, unknown>
}

/**
 * Claims up to `limit` matching records with `FOR UPDATE SKIP LOCKED` and patches them in one
 * statement: two processes claiming at once never get the same record, and neither waits.
 * Returns the patched records in the query's order.
 * @example await claimRecords(pool, table, 'webhook_deliveries', { where: { status: 'pending' }, range: { field: 'nextAttemptAt', lt: now }, orderBy: 'nextAttemptAt', limit: 10, patch: { nextAttemptAt: lease } })
 */
export const claimRecords = async <T extends StoredRecord>(
  db: Queryable,
  source: RecordSource,
  collection: string,
  options: ClaimOptions,
): Promise<T[]> => {
  if ('id' in options.patch) {
    throw new BaseError('validation_failed', 'A claim cannot change record ids', { details: { collection } })
  }
  const limit = Math.max(0, Math.floor(options.limit))
  if (limit === 0) return []
  const p = params()
  const where = compileWhere(source, options, p)
  const table = source.table
  const sameCollection = source.collection === undefined ? '' : `r.collection = ${p.add(collection)} AND `
  const order = compileOrder(options)
  const text = `WITH picked AS (
      SELECT id, row_number() OVER (ORDER BY ${order}) AS n FROM (
        SELECT * FROM ${table} WHERE ${where} ORDER BY ${order} LIMIT ${p.add(limit)} FOR UPDATE SKIP LOCKED
      ) AS locked
    )
    UPDATE ${table} AS r SET data = r.data || ${p.add(JSON.stringify(options.patch))}::jsonb
    FROM picked WHERE ${sameCollection}r.id = picked.id
    RETURNING r.data, picked.n`
  const { rows } = await db.query<{ data: T; n: string }>(text, p.values)
  return rows.sort((a, b) => Number(a.n) - Number(b.n)).map((row) => row.data)
}
