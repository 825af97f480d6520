import { BaseError } from '@agentwallet/core'

/**
 * Quotes a value as an SQL string literal. Collection and field names are inlined rather than bound
 * because SQLite only uses a partial or expression index when the query repeats its exact text.
 * @example sqlString("it's") // "'it''s'"
 */
export const sqlString = (value: string): string => `'${value.replaceAll("'", "''")}'`

/**
 * The table holding one collection's records, quoted: `c_` and the collection's name, any string.
 * @example collectionTable('transactions') // '"c_transactions"'
 */
export const collectionTable = (collection: string): string => `"c_${collection.replaceAll('"', '""')}"`

/**
 * The JSON path of a top-level field, quoted so dots and brackets in a name stay part of the key.
 * @example jsonPath('walletId') // '$."walletId"'
 */
export const jsonPath = (field: string): string => {
  // SQLite's quoted path keys have no escape for `"`; refuse rather than read another field.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/["\u0000-\u001f]/.test(field)) {
    throw new BaseError('validation_failed', `Field name ${JSON.stringify(field)} cannot be queried`, {
      details: { field },
    })
  }
  return sqlString(`$."${field}"`)
}
