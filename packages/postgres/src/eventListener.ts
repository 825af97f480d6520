import type { StoredEvent } from '@agentwallet/core'
import pg from 'pg'
import { decodeNotification, type SeqRange } from './notification.js'

export type EventListenerOptions = {
  config: pg.ClientConfig
  channel: string
  /** This storage's id: its own commits are delivered at commit, so their notifications are skipped. */
  origin: string
  /** Reads the committed events of some ranges (or, for catch-up, after a seq). */
  read: (ranges: readonly SeqRange[]) => Promise<StoredEvent[]>
  /** Hands a batch to the storage's listeners. */
  deliver: (events: StoredEvent[]) => void
  /** False while nobody listens: notifications are then dropped without reading. */
  wanted: () => boolean
}

export type EventListener = {
  start(): Promise<void>
  /** Records that `stream` was seen up to `seq`, for catch-up after a reconnect. */
  saw(stream: string, seq: number): void
  close(): Promise<void>
}

const maxBackoffMs = 5_000

/**
 * One dedicated LISTEN connection per storage, reconnected when it drops. Batches are read and
 * delivered one after another, in notification order. After a reconnect, streams this storage has
 * seen are read past the last seq seen, so a short outage loses nothing on them.
 * @example const listener = eventListener({ config, channel, origin, read, deliver, wanted }); await listener.start()
 */
export const eventListener = (options: EventListenerOptions): EventListener => {
  let client: pg.Client | undefined
  let closed = false
  let backoff = 100
  let timer: NodeJS.Timeout | undefined
  let queue: Promise<void> = Promise.resolve()
  const lastSeen = new Map<string, number>()

  const saw = (stream: string, seq: number) => {
    if ((lastSeen.get(stream) ?? 0) < seq) lastSeen.set(stream, seq)
  }

  // Serialized so batches reach listeners in the order Postgres sent the notifications.
  const enqueue = (ranges: readonly SeqRange[]) => {
    queue = queue
      .then(async () => {
        if (!options.wanted() || ranges.length === 0) return
        const events = await options.read(ranges)
        for (const event of events) saw(event.stream, event.seq)
        if (events.length > 0) options.deliver(events)
      })
      // A failed read must not stop later batches; readers catch up with readEvents.
      .catch(() => {})
  }

  const connect = async () => {
    const next = new pg.Client(options.config)
    // Without a handler an 'error' on an idle connection would crash the process.
    next.on('error', () => dropped(next))
    next.on('end', () => dropped(next))
    next.on('notification', (message) => {
      if (message.channel !== options.channel) return
      const notification = decodeNotification(message.payload)
      if (!notification || notification.origin === options.origin) return
      enqueue(notification.ranges)
    })
    try {
      await next.connect()
      await next.query(`LISTEN "${options.channel}"`)
    } catch (error) {
      next.end().catch(() => {})
      throw error
    }
    client = next
  }

  const scheduleReconnect = () => {
    if (closed || timer) return
    timer = setTimeout(async () => {
      timer = undefined
      try {
        await connect()
        backoff = 100
        enqueue([...lastSeen].map(([stream, seq]): SeqRange => [stream, seq + 1, Number.MAX_SAFE_INTEGER]))
      } catch {
        backoff = Math.min(backoff * 2, maxBackoffMs)
        scheduleReconnect()
      }
    }, backoff)
    timer.unref()
  }

  const dropped = (lost: pg.Client) => {
    if (client !== lost) return
    client = undefined
    lost.end().catch(() => {})
    scheduleReconnect()
  }

  return {
    start: connect,
    saw,
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      const current = client
      client = undefined
      await current?.end().catch(() => {})
    },
  }
}
