import type { AgentWallet } from '@agentwallet/core'
import type Koa from 'koa'
import type { App } from 'koa-websocket'
import type { Logger } from 'pino'
import { authenticateSocket } from './wsAuth.js'
import { type EventHub, wsCloseCodes } from './eventHub.js'

export type MountWebSocketOptions = { agentWallet: AgentWallet; hub: EventHub; logger: Logger; authTimeoutMs: number }

/**
 * `/ws` on koa-websocket's own middleware chain (the HTTP chain does not run for upgrades, so auth
 * is registered here too): authenticate, then hand the socket to the event hub.
 * @example mountWebSocket(app, { agentWallet, hub, logger, authTimeoutMs: 10_000 })
 */
export function mountWebSocket(app: App, options: MountWebSocketOptions): void {
  app.ws.use(async (ctx: Koa.Context & { websocket: import('ws').WebSocket }) => {
    const socket = ctx.websocket
    try {
      const offered = ctx.get('x-api-key') || (typeof ctx.query.apiKey === 'string' ? ctx.query.apiKey : undefined)
      const principal = await authenticateSocket(socket, offered, options)
      if (!principal) {
        socket.send(JSON.stringify({ type: 'error', error: { code: 'unauthorized', message: 'Invalid or missing API key' } }))
        socket.close(wsCloseCodes.unauthorized, 'unauthorized')
        return
      }
      options.hub.add(socket, principal)
      socket.send(JSON.stringify({ type: 'ready', tenantId: principal.tenantId, role: principal.role }))
      options.logger.info({ keyId: principal.id, tenantId: principal.tenantId }, 'websocket connected')
    } catch (error) {
      options.logger.error({ err: error }, 'websocket setup failed')
      socket.close(1011, 'internal error')
    }
  })
}
