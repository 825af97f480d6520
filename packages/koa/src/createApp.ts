import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type AgentWallet,
  BaseError,
  countEvents,
  isApiKeyActive,
  type OperationDeclaration,
  operationList,
} from '@agentwallet/core'
import Router from '@koa/router'
import Koa from 'koa'
import websockify from 'koa-websocket'
import type { Logger } from 'pino'
import { type DashboardOption, serveDashboard } from './dashboard/serveDashboard.js'
import { accessLog } from './http/accessLog.js'
import { allowedMethods } from './http/allowedMethods.js'
import { answerClientError } from './http/answerClientError.js'
import { createLogger } from './http/createLogger.js'
import { errorHandler } from './http/errorHandler.js'
import { jsonBody } from './http/jsonBody.js'
import { logDomainEvents } from './http/logDomainEvents.js'
import { requestId } from './http/requestId.js'
import { type RateLimiter, sharedTokenBucket } from './http/sharedTokenBucket.js'
import { tokenBucket } from './http/tokenBucket.js'
import type { AppState } from './http/types.js'
import { httpMetrics } from './metrics/httpMetrics.js'
import { processMetrics } from './metrics/processMetrics.js'
import { buildOpenApi } from './openapi/buildOpenApi.js'
import { mountOperations } from './operations/mountOperations.js'
import { auditRoutes } from './routes/auditRoutes.js'
import type { RouteSpec } from './routes/defineRoute.js'
import { type HealthOptions, healthRoutes } from './routes/healthRoutes.js'
import { metricsRoutes } from './routes/metricsRoutes.js'
import { mountRoutes } from './routes/mountRoutes.js'
import { systemRoutes } from './routes/systemRoutes.js'
import { type EventHub, eventHub } from './ws/eventHub.js'
import { mountWebSocket } from './ws/mountWebSocket.js'

export const serverVersion = '0.1.0'

export type RateLimitOptions = {
  capacity: number
  refillPerSecond: number
  /**
   * Draw from buckets the storage shares between replicas when it has them
   * (`capabilities.sharedTokenBuckets`, Postgres); else, or with `false`, per-process buckets. Default true.
   */
  shared?: boolean | undefined
}

export type CreateAppOptions = {
  agentWallet: AgentWallet
  logger?: Logger | undefined
  /**
   * Per API key (and per IP for failed authentication); `false` turns it off. Default: bursts of 120,
   * 20 requests/s sustained, shared by every replica when the storage can share it.
   */
  rateLimit?: RateLimitOptions | false | undefined
  /** Largest accepted JSON body in bytes (default 100 kB); larger is a 413. */
  bodyLimitBytes?: number | undefined
  /** `agent.activity` heartbeat period on /ws (default 30 s). */
  heartbeatMs?: number | undefined
  /** How long a socket may take to send its auth message (default 10 s). */
  wsAuthTimeoutMs?: number | undefined
  /** A WebSocket client with more unsent bytes than this is closed with 4408 (default 1 MiB). */
  wsMaxBufferedBytes?: number | undefined
  /** Shown by /onboarding: where the admin key is (e.g. its file). */
  adminKeyHint?: string | undefined
  /** The operations served (default: every operation of core's table). */
  operations?: readonly OperationDeclaration[] | undefined
  /** Serve the approvals dashboard at /dashboard: `true` (the built @agentwallet/dashboard) or `{ dir }`. */
  dashboard?: DashboardOption
  /**
   * Serve `GET /metrics` (Prometheus text format) to `Authorization: Bearer <token>`, a token of its
   * own (16+ characters), not an API key. Unset or `false`: no such route, a 404 (the default).
   */
  metrics?: { token: string } | false | undefined
  /**
   * `/health/ready` (and `/health`): which chains readiness needs (default every configured chain),
   * the bound of each probe (default 2 s) and how long a report is reused (default 1 s).
   */
  health?: HealthOptions | undefined
}

export type AgentWalletApp = {
  koa: Koa<AppState>
  /** The operations served, in matching order. */
  operations: readonly OperationDeclaration[]
  /** The routes of the edge itself (health, onboarding, the OpenAPI document, metrics). */
  routes: readonly RouteSpec[]
  openApi(): Record<string, unknown>
  /** Starts HTTP and /ws on host:port (port 0 picks one); resolves once listening. */
  listen(options: { port: number; host?: string | undefined }): Promise<RunningServer>
}

export type RunningServer = { server: Server; url: string; hub: EventHub; close(): Promise<void> }

/**
 * The HTTP + WebSocket edge over an AgentWallet: error envelope first, request ids, access logs,
 * JSON bodies with a size limit, then one router per resource.
 * @example const app = createApp({ agentWallet }); const { url } = await app.listen({ port: 8080 })
 */
export function createApp(options: CreateAppOptions): AgentWalletApp {
  const logger = options.logger ?? createLogger()
  const koa = websockify(new Koa<AppState>({ proxy: false }), { path: '/ws', maxPayload: 64 * 1024 })
  const startedAt = new Date()
  const served = options.operations ?? operationList
  const metrics = options.metrics ? createMetrics(options.agentWallet, options.metrics.token) : undefined
  let openApiDoc: Record<string, unknown> | undefined
  const openApi = () => {
    openApiDoc ??= buildOpenApi({ operations: served, routes }, { version: serverVersion })
    return openApiDoc
  }
  const routes: RouteSpec[] = [
    ...healthRoutes({
      ...options.health,
      agentWallet: options.agentWallet,
      startedAt,
      version: serverVersion,
    }),
    ...auditRoutes({ agentWallet: options.agentWallet }),
    ...systemRoutes({
      agentWallet: options.agentWallet,
      adminKeyHint: options.adminKeyHint,
      openApi,
    }),
    ...(metrics
      ? metricsRoutes({
          agentWallet: options.agentWallet,
          token: metrics.token,
          processFamilies: metrics.families,
          onStorageError: (error) => logger.warn({ err: error }, 'metrics: storage gauges unreadable'),
        })
      : []),
  ]
  const limit =
    options.rateLimit === false ? undefined : (options.rateLimit ?? { capacity: 120, refillPerSecond: 20 })
  const storage = options.agentWallet.context.storage
  const sharedTake =
    limit && limit.shared !== false && storage.capabilities.sharedTokenBuckets ? storage.takeToken : undefined
  const limiter = (namespace: string, bucket: { capacity: number; refillPerSecond: number }): RateLimiter => {
    const local = tokenBucket(bucket)
    if (!sharedTake) return local
    return sharedTokenBucket({
      storage: { takeToken: sharedTake.bind(storage) },
      limit: { capacity: bucket.capacity, refillPerSecond: bucket.refillPerSecond },
      namespace,
      fallback: local,
      onFallback: (error) =>
        logger.warn(
          { err: error, limiter: namespace },
          'shared rate limit failing; per-process buckets meanwhile',
        ),
      onRecover: () => logger.info({ limiter: namespace }, 'shared rate limit back'),
    })
  }
  const router = new Router<AppState>()
  const auth = {
    agentWallet: options.agentWallet,
    rateLimit: limit && {
      byKey: limiter('key:', limit),
      // Failed authentication is limited per IP, tighter: guessing keys should be slow.
      failedAuthByIp: limiter('ip:', { capacity: 20, refillPerSecond: 1 }),
    },
  }
  mountRoutes(router, routes, auth)
  mountOperations(router, served, auth)

  koa.on('error', () => {
    // Errors are rendered and logged by errorHandler; Koa's default printer would write stacks to stderr.
  })
  koa.use(requestId())
  if (metrics) koa.use(metrics.http.middleware)
  koa.use(accessLog(logger))
  koa.use(errorHandler(logger))
  koa.use(jsonBody({ limitBytes: options.bodyLimitBytes ?? 100_000 }))
  koa.use(serveDashboard(options.dashboard))
  koa.use(allowedMethods(router))
  koa.use(router.routes())

  return {
    koa: koa as unknown as Koa<AppState>,
    operations: served,
    routes,
    openApi,
    async listen({ port, host = '127.0.0.1' }) {
      const hub = eventHub({
        bus: options.agentWallet.bus,
        ownerOf: (walletId) =>
          options.agentWallet.context.storage.get('wallets', walletId).then((wallet) => wallet?.ownerId),
        heartbeatMs: options.heartbeatMs,
        maxBufferedBytes: options.wsMaxBufferedBytes,
        isActive: (principal) => isApiKeyActive(options.agentWallet.context, principal),
      })
      mountWebSocket(koa, {
        agentWallet: options.agentWallet,
        hub,
        logger,
        authTimeoutMs: options.wsAuthTimeoutMs ?? 10_000,
      })
      const server = await new Promise<Server>((resolve, reject) => {
        const started = koa.listen(port, host)
        // ws re-emits the HTTP server's errors (EADDRINUSE); the listen promise reports them instead.
        koa.ws.server?.on('error', () => {})
        started.on('clientError', (error, socket) => answerClientError(error, socket, logger))
        started.once('listening', () => resolve(started))
        started.once('error', reject)
      })
      // The server logs what core emits (transactions, approvals): core itself writes no logs.
      const stopEventLog = logDomainEvents(options.agentWallet.bus, logger)
      const address = server.address() as AddressInfo
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
      return {
        server,
        url: `http://${shownHost}:${address.port}`,
        hub,
        async close() {
          stopEventLog()
          metrics?.stop()
          hub.close()
          koa.ws.server?.close()
          server.closeAllConnections()
          await new Promise<void>((resolve) => server.close(() => resolve()))
        },
      }
    },
  }
}

/** This process's metrics (HTTP, process, events, the tracker's skipped steps) for `/metrics`; the storage gauges are read per scrape. */
function createMetrics(agentWallet: AgentWallet, token: string) {
  if (token.length < 16)
    throw new BaseError('validation_failed', 'The metrics token needs 16 characters or more')
  const http = httpMetrics()
  const runtime = processMetrics()
  const events = countEvents(agentWallet.bus)
  return {
    token,
    http,
    families: () => [
      ...http.families(),
      ...events.families(),
      ...agentWallet.context.skipped.families(),
      ...runtime.families(),
    ],
    stop() {
      runtime.stop()
      events.stop()
    },
  }
}
