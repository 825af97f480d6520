import {
  type DomainEvent,
  type EventBus,
  isAdminOnlyEvent,
  type Principal,
  type StoredEvent,
} from '@agentwallet/core'
import type { WebSocket } from 'ws'

/** Close codes of `/ws` (4000–4999 is the application range of RFC 6455). */
export const wsCloseCodes = {
  /** No key, a bad key, no auth message within the deadline, or the key was revoked. */
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
  /**
   * The owner (key id) of a wallet. With it, an agent key sees only events about its own wallets
   * (`data.walletId`), as over HTTP; approvers and admins see all of their tenant's events.
   */
  ownerOf?: ((walletId: string) => Promise<string | undefined>) | undefined
  /** A client whose unsent bytes exceed this is closed with 4408 rather than buffering without end (default 1 MiB). */
  maxBufferedBytes?: number | undefined
  /**
   * Whether a principal's key is still unrevoked, asked once a socket is registered: a revocation
   * that committed between authentication and registration is caught here, later ones arrive as
   * `key.revoked`. Without it only `key.revoked` closes sockets.
   */
  isActive?: ((principal: Principal) => Promise<boolean>) | undefined
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
/** `backlog` holds live events that arrive while a client is checked and replays; undefined once it is live. */
type Client = {
  socket: WebSocket
  principal: Principal
  backlog?: Envelope[] | undefined
  /** An agent's events pass an ownership check, in order, one after another. */
  queue: Promise<void>
  queued: number
}

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

  const owners = new Map<string, Promise<string | undefined>>()
  const ownerOf = (walletId: string) => {
    // Owners never change; the cache is dropped whole when large rather than tracked per entry.
    if (owners.size > 100_000) owners.clear()
    let owner = owners.get(walletId)
    if (!owner) {
      owner = options.ownerOf!(walletId).catch(() => undefined)
      owners.set(walletId, owner)
    }
    return owner
  }
  const dropSlow = (client: Client) => {
    clients.delete(client)
    client.socket.close(wsCloseCodes.slowConsumer, 'slow consumer')
  }

  /**
   * Sends an event the client may see: any of its tenant's (admin-only ones to admins), or for an
   * agent only its own wallets'.
   */
  const send = (client: Client, envelope: Envelope) => {
    if (isAdminOnlyEvent(envelope.type) && client.principal.role !== 'admin') return
    if (client.principal.role !== 'agent' || !options.ownerOf) return deliver(client, envelope)
    if (++client.queued > maxBacklog) return dropSlow(client)
    client.queue = client.queue.then(async () => {
      client.queued--
      const walletId = (envelope.data as { walletId?: unknown } | undefined)?.walletId
      if (typeof walletId === 'string' && (await ownerOf(walletId)) === client.principal.id)
        deliver(client, envelope)
    })
  }

  const unauthorized = (client: Client) => {
    clients.delete(client)
    client.socket.close(wsCloseCodes.unauthorized, 'api key revoked')
  }

  const onEvent = (event: DomainEvent) => {
    lastSeq.set(event.tenantId, Math.max(lastSeq.get(event.tenantId) ?? 0, event.seq))
    if (event.type === 'key.revoked') {
      const { keyId } = event.data as DomainEvent<'key.revoked'>['data']
      for (const client of clients)
        if (client.principal.id === keyId && client.principal.tenantId === event.tenantId)
          unauthorized(client)
    }
    const { id, type, seq, timestamp, data } = event
    for (const client of clients) {
      if (client.principal.tenantId !== event.tenantId) continue
      if (!client.backlog) send(client, { id, type, seq, timestamp, data })
      else if (client.backlog.push({ id, type, seq, timestamp, data }) > maxBacklog) {
        dropSlow(client)
      }
    }
  }
  options.bus.on('*', onEvent)

  // Started here (by the server's start, not at import); unref'd so it never keeps a process alive.
  const timer = setInterval(() => {
    beat++
    const timestamp = new Date().toISOString()
    const count = connectedCounts()
    for (const client of clients) {
      // Not before a client is live: a heartbeat's seq mid-replay would claim it had caught up.
      if (client.backlog) continue
      deliver(client, {
        id: `hb_${beat}`,
        type: 'agent.activity',
        // Heartbeats are not logged events: they carry the tenant's latest seq so a client knows where it is.
        seq: lastSeq.get(client.principal.tenantId) ?? 0,
        timestamp,
        data: { kind: 'heartbeat', connectedClients: count(client.principal) },
      })
    }
  }, options.heartbeatMs ?? 30_000)
  timer.unref()

  /**
   * The sockets a heartbeat may tell a client about: its tenant's for admins and approvers, its own
   * key's for an agent (which sees nothing else of its tenant's other keys either).
   */
  function connectedCounts(): (principal: Principal) => number {
    const byTenant = new Map<string, number>()
    const byKey = new Map<string, number>()
    for (const { principal } of clients) {
      byTenant.set(principal.tenantId, (byTenant.get(principal.tenantId) ?? 0) + 1)
      const key = `${principal.tenantId}\u0000${principal.id}`
      byKey.set(key, (byKey.get(key) ?? 0) + 1)
    }
    return (principal) =>
      principal.role === 'agent'
        ? (byKey.get(`${principal.tenantId}\u0000${principal.id}`) ?? 0)
        : (byTenant.get(principal.tenantId) ?? 0)
  }

  /** Sends the logged events after `since`, page by page; resolves with the last seq sent. */
  async function replayLog(client: Client, replay: Replay): Promise<number> {
    let last = replay.since
    for (;;) {
      const page = await replay.read(last)
      for (const { id, type, seq, timestamp, data } of page) send(client, { id, type, seq, timestamp, data })
      if (page.length === 0 || !clients.has(client)) return last
      last = page.at(-1)!.seq
    }
  }

  return {
    async add(socket, principal, replay) {
      // Live events are held until the key is known to be unrevoked and the log (if any) is read.
      const client: Client = { socket, principal, backlog: [], queue: Promise.resolve(), queued: 0 }
      clients.add(client)
      socket.on('close', () => clients.delete(client))
      // Registered first, checked second: a revocation committed after this read arrives as key.revoked.
      if (options.isActive && !(await options.isActive(principal))) {
        if (clients.has(client)) unauthorized(client)
        return
      }
      if (!clients.has(client)) return
      // Then the log, then what was held, skipping what the log had (seqs start at 1).
      const last = replay ? await replayLog(client, replay) : 0
      const held = client.backlog ?? []
      client.backlog = undefined
      for (const event of held) if (event.seq > last) send(client, event)
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
