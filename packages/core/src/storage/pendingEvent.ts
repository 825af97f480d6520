import type { EventInput, PendingEvent } from './types.js'

/**
 * An appended event as a SQL storage buffers it until commit: its payload copied to JSON text now,
 * so later changes to the caller's object do not reach the log.
 * @example events.push(pendingEvent(stream, event))
 */
export function pendingEvent(stream: string, event: EventInput): PendingEvent {
  const data = event.data === undefined ? null : JSON.stringify(event.data)
  return { stream, id: event.id, type: event.type, timestamp: event.timestamp, data, keys: event.keys }
}
