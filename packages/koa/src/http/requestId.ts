import { randomUUID } from 'node:crypto'
import type { Middleware } from 'koa'
import type { AppState } from './types.js'

const acceptable = /^[A-Za-z0-9._:-]{1,100}$/

/**
 * Takes the caller's `x-request-id` when it is a sane token (so traces join up across services),
 * else makes one; echoes it on the response and puts it in every log line.
 * @example app.use(requestId())
 */
export function requestId(): Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id')
    ctx.state.requestId = acceptable.test(incoming) ? incoming : `req_${randomUUID().replaceAll('-', '')}`
    ctx.set('x-request-id', ctx.state.requestId)
    await next()
  }
}
