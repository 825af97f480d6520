import type Router from '@koa/router'
import type { Middleware } from 'koa'
import { HttpError } from './httpError.js'
import type { AppState } from './types.js'

/**
 * After the router: a path it has but not for this method answers `OPTIONS` with 204 and `Allow`
 * (the path's methods; no CORS headers, so browsers still refuse cross-origin calls), any other method
 * with 405 in the envelope, also with `Allow`. Unknown paths fall through to the 404 envelope.
 * @example app.use(allowedMethods(router)); app.use(router.routes())
 */
export function allowedMethods(router: Router<AppState>): Middleware<AppState> {
  return async (ctx, next) => {
    await next()
    if (ctx.status !== 404 || ctx.body !== undefined) return
    const methods = new Set(router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods))
    if (methods.size === 0) return
    const allow = [...methods].join(', ')
    ctx.set('allow', allow)
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204
      return
    }
    throw new HttpError('method_not_allowed', `${ctx.method} is not allowed on this path`, {
      details: { allow: [...methods] },
    })
  }
}
