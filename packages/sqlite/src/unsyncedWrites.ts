import type { RecordReader } from './recordReader.js'

/**
 * What the commits not yet known durable wrote: the last such commit's ticket (group commit's) for
 * each record, collection and event stream. A read of what none of them wrote reads only durable
 * data and need not wait for a sync: a wallet's rules or key read while another wallet's broadcast
 * is being synced.
 */
export type UnsyncedWrites = {
  /** Notes what the commit with `ticket` wrote: ids by collection, and the streams it appended to. */
  wrote(
    ticket: number,
    records: ReadonlyMap<string, ReadonlyMap<string, unknown>>,
    streams: Iterable<string>,
  ): void
  /** The ticket a read of one record (with `id`) or of a collection must see durable; 0 for none. */
  ticketOf(collection: string, id?: string): number
  /** The same for a read of an event stream. */
  streamTicket(stream: string): number
}

/** Entries kept before those already synced are swept out. */
const sweepAt = 4096

/**
 * Tickets of unsynced writes; `synced()` is the last ticket on disk (entries at or below it are
 * stale and swept from time to time).
 * @example const unsynced = unsyncedWrites(() => log.sync.synced); unsynced.wrote(ticket, writes, streams)
 */
export function unsyncedWrites(synced: () => number): UnsyncedWrites {
  const records = new Map<string, number>()
  const collections = new Map<string, number>()
  const streams = new Map<string, number>()
  const sweep = (tickets: Map<string, number>) => {
    if (tickets.size < sweepAt) return
    const done = synced()
    for (const [key, ticket] of tickets) if (ticket <= done) tickets.delete(key)
  }
  return {
    wrote(ticket, written, appended) {
      for (const [collection, ids] of written) {
        collections.set(collection, ticket)
        for (const id of ids.keys()) records.set(`${collection}\u0000${id}`, ticket)
      }
      for (const stream of appended) streams.set(stream, ticket)
      sweep(records)
      sweep(streams)
    },
    ticketOf(collection, id) {
      const tickets = id === undefined ? collections : records
      return tickets.get(id === undefined ? collection : `${collection}\u0000${id}`) ?? 0
    },
    streamTicket(stream) {
      return streams.get(stream) ?? 0
    },
  }
}

/**
 * `reader` noting the last unsynced commit that wrote what it read (`ticket()`): what a transaction
 * that wrote nothing waits for before it ends, rather than every commit written so far.
 * @example const { reader, ticket } = noteReads(committed, unsynced)
 */
export function noteReads(
  reader: RecordReader,
  unsynced: UnsyncedWrites,
): { reader: RecordReader; ticket(): number } {
  let seen = 0
  const note = (ticket: number) => {
    if (ticket > seen) seen = ticket
  }
  return {
    reader: {
      get(collection, id) {
        note(unsynced.ticketOf(collection, id))
        return reader.get(collection, id)
      },
      query(collection, options) {
        note(unsynced.ticketOf(collection))
        return reader.query(collection, options)
      },
      count(collection, options) {
        note(unsynced.ticketOf(collection))
        return reader.count(collection, options)
      },
    },
    ticket: () => seen,
  }
}
