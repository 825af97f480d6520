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
 * delivered one after another, in notification order. After a reconnect, the streams this storage
 * had seen are read past their last seq before the drop, skipping what was delivered meanwhile;
 * streams it had never seen are not (readers that must miss nothing resume with `readEvents`).
 * @example const listener = eventListener({ config, channel, origin, read, deliver, wanted }); await listener.start()
 */
export const eventListener = (options: EventListenerOptions): EventListener => {
  let client: pg.Client | undefined
  let closed = false
  let backoff = 100
  let timer: NodeJS.Timeout | undefined
  let queue: Promise<void> = Promise.resolve()
  const lastSeen = new Map<string, number>()
  /** From a drop until its catch-up ran: the last seqs before the drop, and what was delivered since. */
  let gap: { before: Map<string, number>; delivered: Set<string> } | undefined
  /** What the last catch-up delivered, so a late notification of the same events is not delivered twice. */
  let caughtUp = new Set<string>()
  const keyOf = (stream: string, seq: number) => `${stream}\u0000${seq}`

  const saw = (stream: string, seq: number) => {
    if ((lastSeen.get(stream) ?? 0) < seq) lastSeen.set(stream, seq)
    gap?.delivered.add(keyOf(stream, seq))
  }

  // Serialized so batches reach listeners in the order Postgres sent the notifications.
  const enqueue = (task: () => Promise<void>) => {
    // A failed read must not stop later batches; readers catch up with readEvents.
    queue = queue.then(task).catch(() => {})
  }

  const notified = (ranges: readonly SeqRange[]) =>
    enqueue(async () => {
      if (!options.wanted() || ranges.length === 0) return
      const events = (await options.read(ranges)).filter(
        (event) => !caughtUp.has(keyOf(event.stream, event.seq)),
      )
      for (const event of events) saw(event.stream, event.seq)
      if (events.length > 0) options.deliver(events)
    })

  const catchUp = () =>
    enqueue(async () => {
      const missed = gap
      if (!missed) return
      try {
        if (!options.wanted()) return
        const ranges = [...missed.before].map(
          ([stream, seq]): SeqRange => [stream, seq + 1, Number.MAX_SAFE_INTEGER],
        )
        const events = (await options.read(ranges)).filter(
          (event) => !missed.delivered.has(keyOf(event.stream, event.seq)),
        )
        caughtUp = new Set(events.map((event) => keyOf(event.stream, event.seq)))
        for (const event of events) saw(event.stream, event.seq)
        if (events.length > 0) options.deliver(events)
      } finally {
        gap = undefined
      }
    })

  const connect = async () => {
    const next = new pg.Client(options.config)
    // Without a handler an 'error' on an idle connection would crash the process.
    next.on('error', () => dropped(next))
    next.on('end', () => dropped(next))
    next.on('notification', (message) => {
      if (message.channel !== options.channel) return
      const notification = decodeNotification(message.payload)
      if (!notification || notification.origin === options.origin) return
      notified(notification.ranges)
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
        catchUp()
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
    gap ??= { before: new Map(lastSeen), delivered: new Set() }
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
