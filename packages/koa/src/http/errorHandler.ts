import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import { toErrorEnvelope } from './errorEnvelope.js'
import type { AppState } from './types.js'

/**
 * First in the chain: renders every thrown error as the envelope through `statusByCode`, logs
 * unknown ones (with the stack, in the log only), and turns an unmatched route into a 404 envelope.
 * @example app.use(errorHandler(logger))
 */
export function errorHandler(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next()
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404
        ctx.body = {
          success: false,
          error: { code: 'not_found', message: `No route for ${ctx.method} ${ctx.path}` },
        }
      }
    } catch (error) {
      const { status, body } = toErrorEnvelope(error)
      if (status >= 500) logger.error({ err: error, requestId: ctx.state.requestId }, 'request failed')
      ctx.status = status
      ctx.body = body
      if (body.error.code === 'rate_limited') {
        const retryAfter = (body.error.details as { retryAfterSeconds?: number } | undefined)
          ?.retryAfterSeconds
        if (retryAfter !== undefined) ctx.set('retry-after', String(retryAfter))
      }
    }
  }
}
