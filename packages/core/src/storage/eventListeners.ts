import type { EventsListener, StoredEvent } from './types.js'

export type EventListenerSet = {
  /** Adds a listener; returns its unsubscribe. The same function may subscribe twice. */
  add(listener: EventsListener): () => void
  /** Calls every listener with its own copy of a committed batch; a listener's throw is swallowed. */
  notify(events: StoredEvent[]): void
  clear(): void
  readonly size: number
}

/**
 * The `onEvents` side of a Storage adapter: listeners are called after a commit, each with its own
 * copy, and a failing listener can never fail a transaction that has already committed.
 * @example const listeners = eventListeners(); storage.onEvents = listeners.add; listeners.notify(committed)
 */
export function eventListeners(): EventListenerSet {
  const listeners = new Set<EventsListener>()
  return {
    add(listener) {
      // Wrapping makes each subscription distinct, so the same function can subscribe twice.
      const wrapped: EventsListener = (events) => listener(events)
      listeners.add(wrapped)
      return () => {
        listeners.delete(wrapped)
      }
    },
    notify(events) {
      if (events.length === 0) return
      for (const listener of listeners) {
        try {
          listener(structuredClone(events))
        } catch {}
      }
    },
    clear: () => listeners.clear(),
    get size() {
      return listeners.size
    },
  }
}
