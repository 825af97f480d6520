import type { StoredEvent } from '@agentwallet/core'
import type { PendingEvent } from './sqliteTransaction.js'

/**
 * An events row (or a committed pending event) as the port's `StoredEvent`, with a fresh payload.
 * @example toStoredEvent({ stream: 's', seq: 1, id: 'e1', type: 't', timestamp, data: '{}' })
 */
export const toStoredEvent = (row: PendingEvent & { seq: number }): StoredEvent => ({
  id: row.id,
  type: row.type,
  timestamp: row.timestamp,
  data: row.data === null ? undefined : JSON.parse(row.data),
  stream: row.stream,
  seq: row.seq,
})
