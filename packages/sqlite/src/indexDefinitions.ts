import { createHash } from 'node:crypto'
import { fieldSql } from './fieldSql.js'
import { collectionTable } from './sqlText.js'

/** An index this package owns: its name carries a hash of its SQL, so a changed definition is a new index. */
export type IndexDefinition = { collection: string; name: string; sql: string }

/** Every index this package creates starts with this; others in the file are left alone. */
export const indexPrefix = 'aw_'

/** Fields named like timestamps (`createdAt`, `expiresAt`) are what lists order by and ranges scan. */
const isOrderField = (field: string) => field.endsWith('At')

const safe = (text: string) => text.replace(/[^A-Za-z0-9]/g, '').slice(0, 24)

const define = (collection: string, fields: string[], columns: string[]): IndexDefinition => {
  const sql = `ON ${collectionTable(collection)} (${columns.join(', ')})`
  const hash = createHash('sha256').update(sql).digest('hex').slice(0, 10)
  const name = `${indexPrefix}${safe(collection)}_${fields.map(safe).join('_')}_${hash}`
  return { collection, name, sql: `CREATE INDEX IF NOT EXISTS "${name}" ${sql}` }
}

/**
 * The expression indexes for a storage schema, each on its collection's own table. An equality field is indexed together with
 * each timestamp field of its collection, so "one wallet's transactions, newest first, 50 of them"
 * is one index seek that reads 50 entries, whatever the size of the table.
 * @example indexDefinitions({ transactions: { indexes: ['walletId', 'createdAt'] } })
 */
export const indexDefinitions = (
  schema: Record<string, { indexes: readonly string[] }>,
): IndexDefinition[] => {
  const definitions: IndexDefinition[] = []
  for (const [collection, { indexes }] of Object.entries(schema)) {
    const orderFields = indexes.filter(isOrderField)
    const ordered = (field: string) => [fieldSql(field).rank, fieldSql(field).value, 'id']
    for (const field of orderFields) definitions.push(define(collection, [field], ordered(field)))
    for (const field of indexes.filter((name) => !isOrderField(name))) {
      const key = fieldSql(field).key
      if (orderFields.length === 0) definitions.push(define(collection, [field], [key, 'id']))
      for (const order of orderFields)
        definitions.push(define(collection, [field, order], [key, ...ordered(order)]))
    }
  }
  return definitions
}
