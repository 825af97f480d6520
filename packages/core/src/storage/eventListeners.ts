import type { EventsListener, StoredEvent } from './types.js'

export type EventListenerSet = {
  /**
   * Adds a listener; returns its unsubscribe. The same function may subscribe twice. Its throws go
   * to `onError`; with none, they are thrown again on a later turn (an uncaught exception).
   */
  add(listener: EventsListener, onError?: (error: unknown) => void): () => void
  /** Calls every listener with its own copy of a committed batch; one's throw does not stop the others. */
  notify(events: StoredEvent[]): void
  clear(): void
  readonly size: number
}

/**
 * The `onEvents` side of a Storage adapter: listeners are called after a commit, each with its own
 * copy, and a failing listener can never fail a transaction that has already committed; its error
 * goes to the `onError` it subscribed with.
 * @example const listeners = eventListeners(); storage.onEvents = listeners.add; listeners.notify(committed)
 */
export function eventListeners(): EventListenerSet {
  const listeners = new Set<EventsListener>()
  return {
    add(listener, onError = throwLater) {
      // Wrapping makes each subscription distinct, so the same function can subscribe twice.
      const wrapped: EventsListener = (events) => {
        try {
          listener(events)
        } catch (error) {
          onError(error)
        }
      }
      listeners.add(wrapped)
      return () => {
        listeners.delete(wrapped)
      }
    },
    notify(events) {
      if (events.length === 0) return
      for (const listener of listeners) listener(structuredClone(events))
    },
    clear: () => listeners.clear(),
    get size() {
      return listeners.size
    },
  }
}

/** The commit is done and must not fail: the listener's error surfaces on its own turn instead. */
function throwLater(error: unknown): void {
  setTimeout(() => {
    throw error
  })
}
