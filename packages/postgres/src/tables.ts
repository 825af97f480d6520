import { createHash } from 'node:crypto'
import { sqlIdent } from './sqlText.js'

/** The qualified table names of one schema and its NOTIFY channel. */
export type Tables = {
  schema: string
  records: string
  events: string
  streams: string
  rateBuckets: string
  channel: string
}

/**
 * The tables and channel of a schema. The channel is a hash so any schema name fits Postgres' 63-byte limit.
 * @example tables('agentwallet').records // '"agentwallet".records'
 */
export const tables = (schema: string): Tables => {
  const quoted = sqlIdent(schema)
  return {
    schema,
    records: `${quoted}.records`,
    events: `${quoted}.events`,
    streams: `${quoted}.streams`,
    rateBuckets: `${quoted}.rate_buckets`,
    channel: `agentwallet_events_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`,
  }
}
