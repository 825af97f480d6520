import { sqlString } from './sqlText.js'

/** The SQL expressions that stand for one top-level field of a record's jsonb `data`. */
export type FieldSql = {
  /** The value as jsonb, with a missing field read as JSON null: equality and IN are one indexable `=`. */
  key: string
  /** 0 null/missing, 1 boolean, 2 number, 3 object/array, 4 string: queryRecords' type order. */
  rank: string
  /** Numbers as numeric, booleans as 0/1; NULL for other types. */
  num: string
  /** Strings, compared by byte ("C" collation); NULL for other types. */
  text: string
}

/**
 * The equality key, type rank and ordering values of a field, written the same way everywhere so
 * the expression indexes built from them match the queries.
 * @example fieldSql('createdAt').key // `coalesce(data -> 'createdAt', 'null'::jsonb)`
 */
export const fieldSql = (field: string): FieldSql => {
  const path = `data -> ${sqlString(field)}`
  const type = `jsonb_typeof(${path})`
  return {
    // jsonb equality keeps true apart from 1 and "1" apart from 1, as JavaScript's === does.
    key: `coalesce(${path}, 'null'::jsonb)`,
    rank:
      `(CASE ${type} WHEN 'string' THEN 4 WHEN 'number' THEN 2 WHEN 'boolean' THEN 1 ` +
      `WHEN 'object' THEN 3 WHEN 'array' THEN 3 ELSE 0 END)`,
    // One numeric column for numbers and booleans is enough: the rank keeps them apart.
    num: `(CASE ${type} WHEN 'number' THEN (${path})::numeric WHEN 'boolean' THEN ((${path})::boolean)::int::numeric END)`,
    text: `((CASE ${type} WHEN 'string' THEN data ->> ${sqlString(field)} END) COLLATE "C")`,
  }
}
