import type { ReadEventsOptions } from '@agentwallet/core'
import type { Tables } from './tables.js'

/**
 * The SQL of `readEvents`: by key through `event_keys` (its primary key is the index), else by seq
 * on the events' own; a time range narrows either.
 * @example const { text, values } = eventsQuery(tables, 'audit:default', { key: 'kind:policy.decision', limit: 100 })
 */
export function eventsQuery(
  tables: Tables,
  stream: string,
  options: ReadEventsOptions,
): { text: string; values: unknown[] } {
  const { after = 0, limit, key, from, to } = options
  const values: unknown[] = key === undefined ? [stream, after] : [stream, key, after]
  let where =
    key === undefined
      ? 'e.stream = $1 AND e.seq > $2'
      : 'k.stream = $1 AND k.key = $2 AND k.seq > $3 AND e.stream = k.stream AND e.seq = k.seq'
  if (from !== undefined) {
    values.push(from)
    where += ` AND e.timestamp >= $${values.length}`
  }
  if (to !== undefined) {
    values.push(to)
    where += ` AND e.timestamp < $${values.length}`
  }
  let bound = 'ALL'
  if (limit !== undefined) {
    values.push(Math.max(0, Math.floor(limit)))
    bound = `$${values.length}`
  }
  const source = key === undefined ? `${tables.events} e` : `${tables.eventKeys} k, ${tables.events} e`
  return {
    text:
      `SELECT e.stream, e.seq, e.id, e.type, e.timestamp, e.data::text AS data FROM ${source} ` +
      `WHERE ${where} ORDER BY ${key === undefined ? 'e' : 'k'}.seq LIMIT ${bound}`,
    values,
  }
}
