import type { DomainEvent, EventBus, Principal, StoredEvent } from '@agentwallet/core'
import type { WebSocket } from 'ws'

/** Close codes of `/ws` (4000–4999 is the application range of RFC 6455). */
export const wsCloseCodes = {
  /** No key, a bad key, or no auth message within the deadline. */
  unauthorized: 4401,
  /** `?since=` is not a non-negative integer. */
  badRequest: 4400,
  /** The client read too slowly: its send buffer passed the limit. It may reconnect and resume with `?since=<last seq seen>`. */
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

/** Where a resuming client starts: events with seq > `since`, read from the tenant's event log. */
export type Replay = { since: number; read: (after: number) => Promise<StoredEvent[]> }

export type EventHub = {
  /**
   * Streams the tenant's events to an authenticated socket until it closes. With `replay`, first
   * sends the logged events after `since`, then the live ones, without gaps or duplicates.
   */
  add(socket: WebSocket, principal: Principal, replay?: Replay): Promise<void>
  readonly size: number
  close(): void
}

type Envelope = { id: string; type: string; seq: number; timestamp: string; data: unknown }
/** `backlog` holds live events that arrive while a client replays; undefined once it is live. */
type Client = { socket: WebSocket; principal: Principal; backlog?: Envelope[] | undefined }

/** Live events held for one replaying client before it is closed as too slow. */
const maxBacklog = 10_000

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
    for (const client of clients) {
      if (client.principal.tenantId !== event.tenantId) continue
      if (!client.backlog) deliver(client, { id, type, seq, timestamp, data })
      else if (client.backlog.push({ id, type, seq, timestamp, data }) > maxBacklog) {
        clients.delete(client)
        client.socket.close(wsCloseCodes.slowConsumer, 'slow consumer')
      }
    }
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
    async add(socket, principal, replay) {
      const client: Client = { socket, principal, backlog: replay ? [] : undefined }
      clients.add(client)
      socket.on('close', () => clients.delete(client))
      if (!replay) return
      // Live events are held while the log is read, then sent after it, skipping what the log had.
      let last = replay.since
      for (;;) {
        const page = await replay.read(last)
        for (const { id, type, seq, timestamp, data } of page)
          deliver(client, { id, type, seq, timestamp, data })
        if (page.length === 0 || !clients.has(client)) break
        last = page.at(-1)!.seq
      }
      const held = client.backlog ?? []
      client.backlog = undefined
      for (const event of held) if (event.seq > last) deliver(client, event)
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
