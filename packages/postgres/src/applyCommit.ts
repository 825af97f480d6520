import type { StoredEvent } from '@agentwallet/core'
import type pg from 'pg'
import { type BufferedTransaction, storageConflict } from './bufferedTransaction.js'
import { encodeNotifications, type SeqRange } from './notification.js'
import type { Tables } from './tables.js'
import { toStoredEvent } from './toStoredEvent.js'

/**
 * Applies a buffered transaction on `client`, which is already inside BEGIN: writes in one global
 * order, then event seqs, then the NOTIFY; the caller COMMITs. Returns the events as stored.
 *
 * Seqs come from the per-stream counter row, whose lock is held until COMMIT: a second commit on
 * the same stream waits there, so seq order is commit order and a rolled-back commit leaves no gap.
 * @example await client.query('BEGIN'); const events = await applyCommit(client, tables, unit, origin); await client.query('COMMIT')
 */
export const applyCommit = async (
  client: pg.ClientBase,
  tables: Tables,
  unit: BufferedTransaction,
  origin: string,
): Promise<StoredEvent[]> => {
  for (const write of unit.writes()) {
    const source = tables.of(write.collection)
    // A collection's own table has no collection column; in the shared one, it is part of the key.
    const [columns, key, values] =
      source.collection === undefined
        ? ['id, data', 'id', [write.id]]
        : ['collection, id, data', 'collection, id', [write.collection, write.id]]
    const keyMatch = key
      .split(', ')
      .map((column, i) => `${column} = $${i + 1}`)
      .join(' AND ')
    const placeholders = `${values.map((_, i) => `$${i + 1}`).join(', ')}, $${values.length + 1}::jsonb`
    if (write.text === null) {
      await client.query(`DELETE FROM ${source.table} WHERE ${keyMatch}`, values)
    } else if (write.strict) {
      // DO NOTHING keeps the SQL transaction usable; an insert racing ours is the conflict to report.
      const result = await client.query(
        `INSERT INTO ${source.table} (${columns}) VALUES (${placeholders}) ON CONFLICT DO NOTHING`,
        [...values, write.text],
      )
      if (result.rowCount === 0) throw storageConflict(write.collection, write.id)
    } else {
      await client.query(
        `INSERT INTO ${source.table} (${columns}) VALUES (${placeholders}) ` +
          `ON CONFLICT (${key}) DO UPDATE SET data = excluded.data`,
        [...values, write.text],
      )
    }
  }
  const events = unit.events()
  if (events.length === 0) return []
  const perStream = new Map<string, number>()
  for (const event of events) perStream.set(event.stream, (perStream.get(event.stream) ?? 0) + 1)
  // Streams in one order everywhere, so two commits never wait on each other's counters in a cycle.
  const streams = [...perStream.keys()].sort()
  const next = new Map<string, number>()
  const ranges: SeqRange[] = []
  for (const stream of streams) {
    const count = perStream.get(stream)!
    const { rows } = await client.query<{ last_seq: string }>(
      `INSERT INTO ${tables.streams} AS s (stream, last_seq) VALUES ($1, $2) ` +
        'ON CONFLICT (stream) DO UPDATE SET last_seq = s.last_seq + excluded.last_seq RETURNING last_seq',
      [stream, count],
    )
    const last = Number(rows[0]!.last_seq)
    next.set(stream, last - count + 1)
    ranges.push([stream, last - count + 1, last])
  }
  const stored = events.map((event) => {
    const seq = next.get(event.stream)!
    next.set(event.stream, seq + 1)
    return { ...event, seq }
  })
  await client.query(
    `INSERT INTO ${tables.events} (stream, seq, id, type, timestamp, data) ` +
      'SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::jsonb[])',
    [
      stored.map((event) => event.stream),
      stored.map((event) => event.seq),
      stored.map((event) => event.id),
      stored.map((event) => event.type),
      stored.map((event) => event.timestamp),
      stored.map((event) => event.data),
    ],
  )
  const keys = stored.flatMap((event) =>
    (event.keys ?? []).map((key) => [event.stream, key, event.seq] as const),
  )
  if (keys.length > 0)
    await client.query(
      `INSERT INTO ${tables.eventKeys} (stream, key, seq) ` +
        'SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]) ON CONFLICT DO NOTHING',
      [keys.map((row) => row[0]), keys.map((row) => row[1]), keys.map((row) => row[2])],
    )
  // Delivered by Postgres only if and when this transaction commits.
  for (const payload of encodeNotifications(origin, ranges)) {
    await client.query('SELECT pg_notify($1, $2)', [tables.channel, payload])
  }
  return stored.map(toStoredEvent)
}
