import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import { type ErrorEnvelope, toErrorEnvelope } from './errorEnvelope.js'
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
      if (body.error.code === 'chain_unavailable') {
        // An outage of someone else's node, not a bug: no stack, and no viem text, whose URLs can hold API keys.
        logger.warn(
          { code: body.error.code, details: body.error.details, requestId: ctx.state.requestId },
          'chain unavailable',
        )
      } else if (status >= 500) logger.error({ err: error, requestId: ctx.state.requestId }, 'request failed')
      ctx.status = status
      ctx.body = body
      const retryAfter = retryAfterOf(body.error)
      if (retryAfter !== undefined) ctx.set('retry-after', String(retryAfter))
    }
  }
}

/**
 * Seconds a client should wait before trying again: a rate limit says how long; a chain that is
 * unavailable (its RPC down, slow or rate-limiting us) is worth another try after a short pause.
 */
const chainRetryAfterSeconds = 2

function retryAfterOf(error: ErrorEnvelope['error']): number | undefined {
  if (error.code === 'rate_limited')
    return (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds
  if (error.code === 'chain_unavailable') return chainRetryAfterSeconds
  return undefined
}
