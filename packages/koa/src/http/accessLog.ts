import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import type { AppState } from './types.js'

/**
 * One log line per request: method, path (never the query string, which may carry `apiKey`),
 * status, duration, request id and the key id (never the key).
 * @example app.use(accessLog(logger))
 */
export function accessLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          keyId: ctx.state.principal?.id,
          tenantId: ctx.state.principal?.tenantId,
          errorCode: (ctx.body as { error?: { code?: string } } | undefined)?.error?.code,
        },
        'request',
      )
    }
  }
}
