import type { Role, WsMessage } from './types.js'

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed'
export type LiveEvent = {
  id: string
  type: string
  seq: number
  timestamp: string
  data: Record<string, unknown>
}

export type LiveEventsOptions = {
  onEvent(event: LiveEvent): void
  onStatus(status: LiveStatus): void
}

export type LiveEvents = {
  /** The role the server reports for the key; rejects with 'unauthorized' for a bad key. */
  ready: Promise<Role>
  close(): void
}

/**
 * The /ws event stream. The key goes in the first message (`{type:"auth"}`), never in the URL.
 * Reconnects with backoff and resumes with `?since=<last seq>` so no event is missed.
 * @example const live = connectLive(key, { onEvent: console.log, onStatus: () => {} }); await live.ready
 */
export function connectLive(key: string, options: LiveEventsOptions): LiveEvents {
  let lastSeq: number | undefined
  let socket: WebSocket | undefined
  let closed = false
  let attempt = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let settle: { resolve(role: Role): void; reject(error: Error): void } | undefined
  const ready = new Promise<Role>((resolve, reject) => {
    settle = { resolve, reject }
  })

  const open = () => {
    options.onStatus(attempt === 0 ? 'connecting' : 'reconnecting')
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
    const since = lastSeq === undefined ? '' : `?since=${lastSeq}`
    const ws = new WebSocket(`${scheme}//${location.host}/ws${since}`)
    socket = ws
    ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', apiKey: key }))
    ws.onmessage = (message) => {
      let parsed: WsMessage
      try {
        parsed = JSON.parse(String(message.data)) as WsMessage
      } catch {
        return
      }
      if (parsed.type === 'ready' && 'role' in parsed) {
        attempt = 0
        options.onStatus('live')
        settle?.resolve(parsed.role)
        settle = undefined
        return
      }
      if (!('seq' in parsed)) return
      lastSeq = Math.max(lastSeq ?? 0, parsed.seq)
      if (parsed.type !== 'agent.activity') options.onEvent(parsed)
    }
    ws.onclose = (event) => {
      if (socket !== ws) return
      socket = undefined
      if (event.code === 4401) {
        closed = true
        options.onStatus('closed')
        settle?.reject(new Error('unauthorized'))
        return
      }
      if (event.code === 4400) lastSeq = undefined
      if (closed) return
      if (settle && attempt >= 2) {
        settle.reject(new Error('unreachable'))
        settle = undefined
      }
      attempt += 1
      options.onStatus('reconnecting')
      timer = setTimeout(open, Math.min(15_000, 500 * 2 ** attempt))
    }
  }
  open()

  return {
    ready,
    close() {
      closed = true
      clearTimeout(timer)
      socket?.close(1000, 'signed out')
      socket = undefined
      options.onStatus('closed')
    },
  }
}
