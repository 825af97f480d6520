import { type AgentWallet, BaseError, parseInput } from '@agentwallet/core'
import type Router from '@koa/router'
import type Koa from 'koa'
import type { RateLimiter } from '../http/sharedTokenBucket.js'
import type { AppState } from '../http/types.js'
import type { RouteSpec } from './defineRoute.js'

export type MountOptions = {
  agentWallet: AgentWallet
  /** Per-key buckets for authenticated calls; per-IP buckets slow down failed authentication. */
  rateLimit?: { byKey: RateLimiter; failedAuthByIp: RateLimiter } | undefined
}

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

async function authenticateRequest(ctx: Koa.ParameterizedContext<AppState>, options: MountOptions) {
  try {
    const principal = await options.agentWallet.authenticate(ctx.get('x-api-key') || undefined)
    const verdict = await options.rateLimit?.byKey.take(principal.id)
    if (verdict && !verdict.ok) throw rateLimited(verdict.retryAfterSeconds)
    return principal
  } catch (error) {
    if (error instanceof BaseError && error.code === 'unauthorized') {
      const verdict = await options.rateLimit?.failedAuthByIp.take(ctx.ip)
      if (verdict && !verdict.ok) throw rateLimited(verdict.retryAfterSeconds)
    }
    throw error
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

function rateLimited(retryAfterSeconds: number): BaseError {
  return new BaseError('rate_limited', 'Too many requests; retry after the Retry-After delay', {
    details: { retryAfterSeconds },
  })
}

/** Strictness where a route declares no shape: unexpected input is refused, not ignored. */
function assertEmpty(value: unknown, what: string): undefined {
  const empty =
    value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0)
  if (!empty) throw new BaseError('validation_failed', `This endpoint takes no ${what}`)
  return undefined
}
