import { BaseError } from '@agentwallet/core'

/**
 * Quotes a value as an SQL string literal. Collection and field names are inlined rather than bound
 * because Postgres only uses a partial or expression index whose expression the query repeats.
 * @example sqlString("it's") // "'it''s'"
 */
export const sqlString = (value: string): string => {
  // Postgres text cannot hold NUL; refuse rather than send a literal the server rejects oddly.
  if (value.includes('\u0000')) {
    throw new BaseError('validation_failed', 'Names cannot contain NUL characters', { details: { value } })
  }
  return `'${value.replaceAll("'", "''")}'`
}

/**
 * Quotes an SQL identifier (a schema name, an index name).
 * @example sqlIdent('agentwallet') // '"agentwallet"'
 */
export const sqlIdent = (name: string): string => {
  if (name.length === 0 || name.includes('\u0000')) {
    throw new BaseError('validation_failed', `Invalid SQL identifier ${JSON.stringify(name)}`, {
      details: { name },
    })
  }
  return `"${name.replaceAll('"', '""')}"`
}

/** Collects bound values and hands out their `$n` placeholders in order. */
export type Params = { values: unknown[]; add(value: unknown): string }

/**
 * A fresh placeholder list.
 * @example const p = params(); const sql = `id = ${p.add('a')}` // 'id = $1'
 */
export const params = (): Params => {
  const values: unknown[] = []
  return {
    values,
    add(value) {
      values.push(value)
      return `$${values.length}`
    },
  }
}
