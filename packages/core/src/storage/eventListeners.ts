import type { EventsListener, StoredEvent } from './types.js'

export type EventListenerSet = {
  /**
   * Adds a listener; returns its unsubscribe. The same function may subscribe twice. Its throws go
   * to `onError`; with none, they are thrown again on a later turn (an uncaught exception).
   */
  add(listener: EventsListener, onError?: (error: unknown) => void): () => void
  /**
   * Calls every listener with a committed batch (its own copy, unless the set shares one); one's
   * throw does not stop the others. `fresh`: the batch was made for this call (parsed from the
   * rows just written) and nothing else holds it, so the last listener is handed it as is.
   */
  notify(events: StoredEvent[], options?: { fresh?: boolean }): void
  clear(): void
  readonly size: number
}

/**
 * The `onEvents` side of a Storage adapter: listeners are called after a commit, each with its own
 * copy, and a failing listener can never fail a transaction that has already committed; its error
 * goes to the `onError` it subscribed with. `{ shared: true }`: every listener gets the same batch,
 * for listeners that only read it (core's own, fed from one subscription: `AgentWalletContext.commits`).
 * @example const listeners = eventListeners(); storage.onEvents = listeners.add; listeners.notify(committed)
 */
export function eventListeners({ shared = false }: { shared?: boolean } = {}): EventListenerSet {
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
    notify(events, { fresh = false } = {}) {
      if (events.length === 0) return
      // Those subscribed now; one subscribing during the calls hears from the next batch on.
      const targets = [...listeners]
      for (const [index, listener] of targets.entries()) {
        const own = shared || (fresh && index === targets.length - 1)
        listener(own ? events : structuredClone(events))
      }
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
