import { type AgentWallet, BaseError, type Principal } from '@agentwallet/core'
import type Koa from 'koa'
import type { RateLimiter } from '../http/sharedTokenBucket.js'
import type { AppState } from '../http/types.js'

export type AuthOptions = {
  agentWallet: AgentWallet
  /** Per-key buckets for authenticated calls; per-IP buckets slow down failed authentication. */
  rateLimit?: { byKey: RateLimiter; failedAuthByIp: RateLimiter } | undefined
}

/**
 * The principal of the request's `X-API-Key`, after its rate limit; a failed authentication draws
 * from the caller IP's (tighter) bucket, so guessing keys is slow.
 * @example const principal = await authenticateRequest(ctx, options)
 */
export async function authenticateRequest(
  ctx: Koa.ParameterizedContext<AppState>,
  options: AuthOptions,
): Promise<Principal> {
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

/** The `rate_limited` error, with the delay the client should wait. */
export function rateLimited(retryAfterSeconds: number): BaseError {
  return new BaseError('rate_limited', 'Too many requests; retry after the Retry-After delay', {
    details: { retryAfterSeconds },
  })
}
