import { jsonPath } from './sqlText.js'

/** The SQL expressions that stand for one top-level field of a record's JSON `data`. */
export type FieldSql = {
  /** The value as JSON text (`'"abc"'`, `'1'`, `'true'`), with null and missing both `'null'`. */
  key: string
  /** 0 null/missing, 1 boolean, 2 number, 3 object/array, 4 string: queryRecords' type order. */
  rank: string
  /** The SQL value within its rank; objects and arrays all compare equal, as in queryRecords. */
  value: string
}

/**
 * The equality key, type rank and ordering value of a field, written the same way everywhere so
 * the indexes built from them match the queries' text.
 * @example fieldSql('createdAt').key // `coalesce(data -> '$."createdAt"', 'null')`
 */
export const fieldSql = (field: string): FieldSql => {
  const path = jsonPath(field)
  const type = `json_type(data, ${path})`
  return {
    // JSON text keeps true apart from 1 and "1" apart from 1, so equality is one indexable `=`.
    key: `coalesce(data -> ${path}, 'null')`,
    rank:
      `CASE ${type} WHEN 'text' THEN 4 WHEN 'integer' THEN 2 WHEN 'real' THEN 2 ` +
      `WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'object' THEN 3 WHEN 'array' THEN 3 ELSE 0 END`,
    value: `CASE WHEN ${type} IN ('object', 'array') THEN NULL ELSE json_extract(data, ${path}) END`,
  }
}
