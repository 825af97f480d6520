import type { StoredEvent } from '@agentwallet/core'

/** An events row, or a just-committed event, before it is handed out. */
export type EventRow = {
  stream: string
  seq: number | string
  id: string
  type: string
  timestamp: string
  /** JSON text, or null when the event had no `data`. */
  data: string | null
}

/**
 * An events row as the port's `StoredEvent`, with a fresh payload.
 * @example toStoredEvent({ stream: 's', seq: '1', id: 'e1', type: 't', timestamp, data: '{}' })
 */
export const toStoredEvent = (row: EventRow): StoredEvent => ({
  id: row.id,
  type: row.type,
  timestamp: row.timestamp,
  data: row.data === null ? undefined : JSON.parse(row.data),
  stream: row.stream,
  seq: Number(row.seq),
})
