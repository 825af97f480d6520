import type { DomainEvent, EventBus } from '../events/eventBus.js'
import { eventNames } from '../schemas/eventNames.js'
import type { MetricFamily } from './metricFamily.js'

export type EventCounter = {
  /** `agentwallet_events_total{type}` as counted so far. */
  families(): MetricFamily[]
  /** Stops counting (unsubscribes from the bus). */
  stop(): void
}

/**
 * Counts the domain events this process's bus publishes, by type (no tenant, no ids). Every known
 * type starts at 0 so a rate is defined from the first scrape.
 * @example const events = countEvents(agentWallet.bus); events.families()
 */
export function countEvents(bus: EventBus): EventCounter {
  const counts = new Map<string, number>(Object.keys(eventNames).map((type) => [type, 0]))
  const listener = (event: DomainEvent) => {
    // Unknown types are not counted: a label value must come from the fixed table.
    if (counts.has(event.type)) counts.set(event.type, counts.get(event.type)! + 1)
  }
  bus.on('*', listener)
  return {
    families: () => [
      {
        name: 'agentwallet_events_total',
        help: 'Domain events this process saw on its bus since it started, by type. Storage that fans events out between processes (Postgres) delivers every replica every event, so each replica counts them all: take max, not sum, across replicas.',
        type: 'counter',
        samples: [...counts].map(([type, value]) => ({ labels: { type }, value })),
      },
    ],
    stop: () => bus.off('*', listener),
  }
}
