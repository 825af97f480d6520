import { BaseError, parseInput } from '@agentwallet/core'
import type Router from '@koa/router'
import type Koa from 'koa'
import type { AppState } from '../http/types.js'
import { type AuthOptions, authenticateRequest, rateLimited } from './authenticate.js'
import type { RouteSpec } from './defineRoute.js'

export type MountOptions = AuthOptions

/**
 * Registers each spec on the router with the shared steps: authenticate → rate limit → parse
 * query and body (strict) → the handler's one core call → status and body.
 * @example mountRoutes(router, walletRoutes, { agentWallet })
 */
export function mountRoutes(
  router: Router<AppState>,
  specs: readonly RouteSpec[],
  options: MountOptions,
): void {
  for (const spec of specs) {
    router[spec.method](spec.path, async (ctx) => {
      ctx.state.route = spec.path
      if (spec.auth === 'bearer') await authenticateBearer(ctx, spec, options)
      const principal =
        spec.auth === 'public' || spec.auth === 'bearer' ? undefined : await authenticateRequest(ctx, options)
      const session = principal ? options.agentWallet.as(principal) : undefined
      ctx.state.principal = principal
      ctx.state.session = session
      const query = spec.query
        ? parseInput(spec.query, { ...ctx.query })
        : assertEmpty(ctx.query, 'query parameters')
      const body = spec.body
        ? parseInput(spec.body, ctx.state.body)
        : assertEmpty(ctx.state.body, 'request body')
      const idempotencyKey = spec.idempotent ? ctx.get('idempotency-key') || undefined : undefined
      const result = await spec.handler({
        session: session!,
        principal: principal!,
        body,
        query,
        params: ctx.params,
        idempotencyKey,
      })
      ctx.status = result.status ?? spec.status ?? 200
      ctx.body = result.body
      if (spec.produces) ctx.type = spec.produces
    })
  }
}

/** A `bearer` route's own token; failures draw from the same per-IP bucket as bad API keys. */
async function authenticateBearer(
  ctx: Koa.ParameterizedContext<AppState>,
  spec: RouteSpec,
  options: MountOptions,
): Promise<void> {
  const match = /^Bearer +(\S+) *$/i.exec(ctx.get('authorization'))
  if (match && spec.verifyBearer?.(match[1]!)) return
  const verdict = await options.rateLimit?.failedAuthByIp.take(ctx.ip)
  if (verdict && !verdict.ok) throw rateLimited(verdict.retryAfterSeconds)
  ctx.set('www-authenticate', 'Bearer')
  throw new BaseError('unauthorized', 'This endpoint takes its own bearer token (Authorization: Bearer …)')
}

/** Strictness where a route declares no shape: unexpected input is refused, not ignored. */
function assertEmpty(value: unknown, what: string): undefined {
  const empty =
    value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0)
  if (!empty) throw new BaseError('validation_failed', `This endpoint takes no ${what}`)
  return undefined
}
