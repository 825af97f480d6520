import type { Storage, TokenBucketLimit, TokenTake } from '@agentwallet/core'
import type { TokenBucket } from './tokenBucket.js'

/** What the routes ask before a call: the in-memory bucket and the shared one both fit. */
export type RateLimiter = { take(key: string): TokenTake | Promise<TokenTake> }

export type SharedTokenBucketOptions = {
  storage: Required<Pick<Storage, 'takeToken'>>
  limit: TokenBucketLimit
  /** Prefixed to every key, so limits of different kinds never share a bucket (`key:`, `ip:`). */
  namespace: string
  /** Answers while the storage's take fails: the per-process bucket of the same limit. */
  fallback: TokenBucket
  /** Called once when the shared take starts failing, and once when it works again. */
  onFallback?: ((error: Error) => void) | undefined
  onRecover?: (() => void) | undefined
}

/**
 * Token buckets held by the storage (one row per key in Postgres), so every replica draws from the
 * same bucket. When a take fails (the database is unreachable, say) the request is judged by the
 * per-process `fallback` instead: the limit degrades to what one replica enforces, never to none,
 * and a database blip does not turn into 429s or 500s on its own.
 * @example const byKey = sharedTokenBucket({ storage, limit, namespace: 'key:', fallback: tokenBucket(limit) })
 */
export function sharedTokenBucket(options: SharedTokenBucketOptions): RateLimiter {
  let failing = false
  return {
    async take(key) {
      try {
        const taken = await options.storage.takeToken(`${options.namespace}${key}`, options.limit)
        if (failing) {
          failing = false
          options.onRecover?.()
        }
        return taken
      } catch (error) {
        if (!failing) {
          failing = true
          options.onFallback?.(error as Error)
        }
        return options.fallback.take(key)
      }
    },
  }
}
