import type { Readable } from 'node:stream'
import type { AgentWalletSession, Principal } from '@agentwallet/core'
import type { z } from 'zod'
import type { HttpErrorCode } from '../http/statusByCode.js'

export type HttpMethod = 'get' | 'post' | 'delete'

/** What a handler receives: already authenticated and parsed. */
export type RouteInput<TBody, TQuery> = {
  session: AgentWalletSession
  principal: Principal
  body: TBody
  query: TQuery
  params: Record<string, string>
  /** The `Idempotency-Key` header, for routes that accept it. */
  idempotencyKey: string | undefined
}

/** `body` is JSON, or text (or a stream of it) for a route that `produces` another content type. */
export type RouteResult = { status?: number | undefined; body: Record<string, unknown> | string | Readable }

/** One endpoint: its shape (for validation and the OpenAPI document) and its three-step handler. */
export type RouteSpec = {
  method: HttpMethod
  path: string
  summary: string
  /**
   * `public` routes need no key (health, onboarding, openapi); `bearer` routes take their own
   * operator token in `Authorization: Bearer …` (metrics), checked by `verifyBearer`, never an API key.
   */
  auth?: 'key' | 'public' | 'bearer' | undefined
  /** For `bearer` routes: whether the token sent is the right one (constant-time). */
  verifyBearer?: ((token: string) => boolean) | undefined
  /** Content type of a success when not JSON (e.g. the Prometheus text format); the body is then a string. */
  produces?: string | undefined
  /** Who may call it, for the docs; core enforces roles. */
  roles?: string | undefined
  body?: z.ZodType | undefined
  query?: z.ZodType | undefined
  /** What a success answers beside `success: true` (for the OpenAPI document). */
  output?: z.ZodType | undefined
  /**
   * An error envelope that still carries fields beside `error` (a failed readiness check keeps its
   * report): its code, and those fields (for the OpenAPI document).
   */
  errorAnswer?: { code: HttpErrorCode; output: z.ZodType } | undefined
  idempotent?: boolean | undefined
  /** Status of a success (default 200). */
  status?: number | undefined
  // biome-ignore lint/suspicious/noExplicitAny: handlers are typed by defineRoute
  handler(input: RouteInput<any, any>): Promise<RouteResult>
}

/**
 * Declares an endpoint with a typed handler: parse (by the zod schemas) → one core call → status + body.
 * @example defineRoute({ method: 'post', path: '/wallet/create', body: createWalletSchema, handler: ... })
 */
export function defineRoute<
  TBody extends z.ZodType | undefined = undefined,
  TQuery extends z.ZodType | undefined = undefined,
>(
  spec: Omit<RouteSpec, 'handler' | 'body' | 'query'> & {
    body?: TBody
    query?: TQuery
    handler(
      input: RouteInput<
        TBody extends z.ZodType ? z.output<TBody> : undefined,
        TQuery extends z.ZodType ? z.output<TQuery> : undefined
      >,
    ): Promise<RouteResult>
  },
): RouteSpec {
  return spec as RouteSpec
}
