import { createHash } from 'node:crypto'
import { fieldSql } from './fieldSql.js'
import { sqlIdent } from './sqlText.js'
import type { Tables } from './tables.js'

/** An index this package owns: its name carries a hash of its SQL, so a changed definition is a new index. */
export type IndexDefinition = { table: string; name: string; sql: string }

/** Every index this package creates starts with this; others are left alone. */
export const indexPrefix = 'aw_'

/** Fields named like timestamps (`createdAt`, `expiresAt`) are what lists order by and ranges scan. */
const isOrderField = (field: string) => field.endsWith('At')

const safe = (text: string) => text.replace(/[^A-Za-z0-9]/g, '').slice(0, 16)

const define = (table: string, collection: string, fields: string[], columns: string[]): IndexDefinition => {
  const body = `(${columns.join(', ')})`
  const hash = createHash('sha256').update(`${table} ${body}`).digest('hex').slice(0, 10)
  // Postgres truncates identifiers at 63 bytes; the hash keeps truncated names distinct.
  const name = `${indexPrefix}${safe(collection)}_${fields.map(safe).join('_')}`.slice(0, 50) + `_${hash}`
  return { table, name, sql: `CREATE INDEX IF NOT EXISTS ${sqlIdent(name)} ON ${table} ${body}` }
}

/**
 * The expression indexes for a storage schema, each on its collection's own table. An equality
 * field is indexed together with each timestamp field of its collection, so "one wallet's
 * transactions, newest first, 50 of them" is one backward index scan that reads 50 entries,
 * whatever the size of the table.
 * @example indexDefinitions(tables(schema, ['transactions']), { transactions: { indexes: ['walletId', 'createdAt'] } })
 */
export const indexDefinitions = (
  tables: Pick<Tables, 'of'>,
  schema: Record<string, { indexes: readonly string[] }>,
): IndexDefinition[] => {
  const definitions: IndexDefinition[] = []
  const ordered = (field: string) => {
    const { rank, num, text } = fieldSql(field)
    return [rank, num, text, 'id']
  }
  for (const [collection, { indexes }] of Object.entries(schema)) {
    const { table } = tables.of(collection)
    const orderFields = indexes.filter(isOrderField)
    for (const field of orderFields) definitions.push(define(table, collection, [field], ordered(field)))
    for (const field of indexes.filter((name) => !isOrderField(name))) {
      const key = fieldSql(field).key
      if (orderFields.length === 0) definitions.push(define(table, collection, [field], [key, 'id']))
      for (const order of orderFields) {
        definitions.push(define(table, collection, [field, order], [key, ...ordered(order)]))
      }
    }
  }
  return definitions
}
