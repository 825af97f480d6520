import type { DomainEvent, EventBus, Principal } from '@agentwallet/core'
import type { WebSocket } from 'ws'

/** Close codes of `/ws` (4000–4999 is the application range of RFC 6455). */
export const wsCloseCodes = {
  /** No key, a bad key, or no auth message within the deadline. */
  unauthorized: 4401,
  /** The client read too slowly: its send buffer passed the limit. It may reconnect (and resume with ?since= once the event log lands). */
  slowConsumer: 4408,
  /** The server is shutting down. */
  goingAway: 1001,
} as const

export type EventHubOptions = {
  bus: EventBus
  /** `agent.activity` heartbeat period (default 30 s). */
  heartbeatMs?: number | undefined
  /** A client whose unsent bytes exceed this is closed with 4408 rather than buffering without end (default 1 MiB). */
  maxBufferedBytes?: number | undefined
}

export type EventHub = {
  /** Streams the tenant's events to an authenticated socket until it closes. */
  add(socket: WebSocket, principal: Principal): void
  readonly size: number
  close(): void
}

type Client = { socket: WebSocket; principal: Principal }

/**
 * Fans domain events out to WebSocket clients, each seeing only its own tenant's events, in the
 * envelope `{ id, type, seq, timestamp, data }`, plus `agent.activity` heartbeats. A slow client is
 * closed (4408), never allowed to stall the others or grow memory without bound.
 * @example const hub = eventHub({ bus: agentWallet.bus }); hub.add(socket, principal)
 */
export function eventHub(options: EventHubOptions): EventHub {
  const maxBuffered = options.maxBufferedBytes ?? 1024 * 1024
  const clients = new Set<Client>()
  const lastSeq = new Map<string, number>()
  let beat = 0

  const deliver = (client: Client, message: unknown) => {
    const { socket } = client
    if (socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > maxBuffered) {
      clients.delete(client)
      socket.close(wsCloseCodes.slowConsumer, 'slow consumer')
      return
    }
    socket.send(JSON.stringify(message))
  }

  const onEvent = (event: DomainEvent) => {
    lastSeq.set(event.tenantId, Math.max(lastSeq.get(event.tenantId) ?? 0, event.seq))
    const { id, type, seq, timestamp, data } = event
    for (const client of clients) if (client.principal.tenantId === event.tenantId) deliver(client, { id, type, seq, timestamp, data })
  }
  options.bus.on('*', onEvent)

  // Started here (by the server's start, not at import); unref'd so it never keeps a process alive.
  const timer = setInterval(() => {
    beat++
    const timestamp = new Date().toISOString()
    for (const client of clients) {
      deliver(client, {
        id: `hb_${beat}`,
        type: 'agent.activity',
        // Heartbeats are not logged events: they carry the tenant's latest seq so a client knows where it is.
        seq: lastSeq.get(client.principal.tenantId) ?? 0,
        timestamp,
        data: { kind: 'heartbeat', connectedClients: clients.size },
      })
    }
  }, options.heartbeatMs ?? 30_000)
  timer.unref()

  return {
    add(socket, principal) {
      const client = { socket, principal }
      clients.add(client)
      socket.on('close', () => clients.delete(client))
    },
    get size() {
      return clients.size
    },
    close() {
      clearInterval(timer)
      options.bus.off('*', onEvent)
      for (const client of clients) client.socket.close(wsCloseCodes.goingAway, 'server shutting down')
      clients.clear()
    },
  }
}
