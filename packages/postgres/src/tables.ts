import { createHash } from 'node:crypto'
import { sqlIdent } from './sqlText.js'

/**
 * Where one collection's records are: a table of its own (`collection` undefined), or the shared
 * `records` table, where rows carry their collection's name.
 */
export type RecordSource = { table: string; collection?: string | undefined }

/** The qualified table names of one schema and its NOTIFY channel. */
export type Tables = {
  schema: string
  /** The shared table of collections that have none of their own (those not in the schema). */
  records: string
  /** Where `collection` is kept. */
  of(collection: string): RecordSource
  /** The collections with a table of their own, by table name. */
  own: ReadonlyMap<string, string>
  events: string
  /** An event's keys (`EventInput.keys`), one row each: the index `readEvents(stream, { key })` reads. */
  eventKeys: string
  streams: string
  rateBuckets: string
  channel: string
}

/**
 * The name of a collection's own table: `c_` and the collection, or, for a name longer than fits
 * Postgres' 63 bytes, its first characters and a hash.
 * @example collectionTableName('transactions') // 'c_transactions'
 */
export const collectionTableName = (collection: string): string => {
  const name = `c_${collection}`
  if (Buffer.byteLength(name) <= 63) return name
  const hash = createHash('sha256').update(collection).digest('hex').slice(0, 12)
  return `c_${collection.replace(/[^A-Za-z0-9_]/g, '').slice(0, 40)}_${hash}`
}

/**
 * The tables and channel of a schema; each collection of `collections` (the storage schema's) has
 * a table of its own. The channel is a hash so any schema name fits Postgres' 63-byte limit.
 * @example tables('agentwallet', ['wallets']).of('wallets') // { table: '"agentwallet"."c_wallets"' }
 */
export const tables = (schema: string, collections: readonly string[] = []): Tables => {
  const quoted = sqlIdent(schema)
  const records = `${quoted}.records`
  const own = new Map(
    collections.map((collection) => [collection, `${quoted}.${sqlIdent(collectionTableName(collection))}`]),
  )
  return {
    schema,
    records,
    of: (collection) => {
      const table = own.get(collection)
      return table === undefined ? { table: records, collection } : { table }
    },
    own,
    events: `${quoted}.events`,
    eventKeys: `${quoted}.event_keys`,
    streams: `${quoted}.streams`,
    rateBuckets: `${quoted}.rate_buckets`,
    channel: `agentwallet_events_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`,
  }
}
