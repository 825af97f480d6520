import type { ReadEventsOptions } from '@agentwallet/core'

/**
 * The SQL of `readEvents`: by key through `event_keys` (its primary key is the index), else by seq
 * on the events' own; a time range narrows either.
 * @example const { sql, params } = eventsQuery('audit:default', { key: 'kind:policy.decision', limit: 100 })
 */
export function eventsQuery(stream: string, options: ReadEventsOptions): { sql: string; params: unknown[] } {
  const { after = 0, limit, key, from, to } = options
  const params: unknown[] = key === undefined ? [stream, after] : [stream, key, after]
  let where =
    key === undefined
      ? 'e.stream = ? AND e.seq > ?'
      : 'k.stream = ? AND k.key = ? AND k.seq > ? AND e.stream = k.stream AND e.seq = k.seq'
  if (from !== undefined) {
    where += ' AND e.timestamp >= ?'
    params.push(from)
  }
  if (to !== undefined) {
    where += ' AND e.timestamp < ?'
    params.push(to)
  }
  params.push(limit === undefined ? -1 : Math.max(0, Math.floor(limit)))
  const source = key === undefined ? 'events e' : 'event_keys k, events e'
  return {
    sql: `SELECT e.stream, e.seq, e.id, e.type, e.timestamp, e.data FROM ${source} WHERE ${where} ORDER BY ${key === undefined ? 'e' : 'k'}.seq LIMIT ?`,
    params,
  }
}
