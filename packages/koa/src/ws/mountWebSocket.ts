import type { AgentWallet } from '@agentwallet/core'
import type Koa from 'koa'
import type { App } from 'koa-websocket'
import type { Logger } from 'pino'
import { type EventHub, wsCloseCodes } from './eventHub.js'
import { authenticateSocket } from './wsAuth.js'

export type MountWebSocketOptions = {
  agentWallet: AgentWallet
  hub: EventHub
  logger: Logger
  authTimeoutMs: number
}

/**
 * `/ws` on koa-websocket's own middleware chain (the HTTP chain does not run for upgrades, so auth
 * is registered here too): authenticate, then hand the socket to the event hub.
 * @example mountWebSocket(app, { agentWallet, hub, logger, authTimeoutMs: 10_000 })
 */
export function mountWebSocket(app: App, options: MountWebSocketOptions): void {
  app.ws.use(async (ctx: Koa.Context & { websocket: import('ws').WebSocket }) => {
    const socket = ctx.websocket
    try {
      const offered =
        ctx.get('x-api-key') || (typeof ctx.query.apiKey === 'string' ? ctx.query.apiKey : undefined)
      const principal = await authenticateSocket(socket, offered, options)
      if (!principal) {
        socket.send(
          JSON.stringify({
            type: 'error',
            error: { code: 'unauthorized', message: 'Invalid or missing API key' },
          }),
        )
        socket.close(wsCloseCodes.unauthorized, 'unauthorized')
        return
      }
      const since = parseSince(ctx.query.since)
      if (since === null) {
        socket.send(
          JSON.stringify({
            type: 'error',
            error: { code: 'validation_failed', message: 'since must be a non-negative integer (a seq)' },
          }),
        )
        socket.close(wsCloseCodes.badRequest, 'bad since')
        return
      }
      socket.send(
        JSON.stringify({ type: 'ready', tenantId: principal.tenantId, role: principal.role, since }),
      )
      const storage = options.agentWallet.context.storage
      await options.hub.add(
        socket,
        principal,
        since === undefined
          ? undefined
          : { since, read: (after) => storage.readEvents(principal.tenantId, { after, limit: 500 }) },
      )
      options.logger.info({ keyId: principal.id, tenantId: principal.tenantId }, 'websocket connected')
    } catch (error) {
      options.logger.error({ err: error }, 'websocket setup failed')
      socket.close(1011, 'internal error')
    }
  })
}

/** `?since=<seq>`: undefined when absent, null when malformed. */
function parseSince(value: unknown): number | undefined | null {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return null
  return Number(value)
}
