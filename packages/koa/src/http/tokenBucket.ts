export type TokenBucketOptions = {
  /** Burst size: requests allowed at once. */
  capacity: number
  /** Sustained rate: tokens added per second. */
  refillPerSecond: number
  /** Buckets idle this long are forgotten (bounds memory). Default 10 min. */
  idleMs?: number | undefined
  now?: (() => number) | undefined
}

export type TokenBucket = {
  /** Takes one token for `key`; when none is left, returns how many seconds until one is. */
  take(key: string): { ok: true } | { ok: false; retryAfterSeconds: number }
}

/**
 * In-memory token buckets per key, for one process (memory and SQLite storage). With Postgres the
 * edge uses `sharedTokenBucket` instead and keeps this one as its fallback while the database fails.
 * @example const bucket = tokenBucket({ capacity: 60, refillPerSecond: 10 })
 */
export function tokenBucket(options: TokenBucketOptions): TokenBucket {
  const now = options.now ?? Date.now
  const idleMs = options.idleMs ?? 10 * 60_000
  const buckets = new Map<string, { tokens: number; at: number }>()
  let lastSweep = now()
  return {
    take(key) {
      const t = now()
      if (t - lastSweep > idleMs) {
        for (const [k, b] of buckets) if (t - b.at > idleMs) buckets.delete(k)
        lastSweep = t
      }
      const bucket = buckets.get(key) ?? { tokens: options.capacity, at: t }
      bucket.tokens = Math.min(
        options.capacity,
        bucket.tokens + ((t - bucket.at) / 1000) * options.refillPerSecond,
      )
      bucket.at = t
      buckets.set(key, bucket)
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return { ok: true }
      }
      return {
        ok: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / options.refillPerSecond)),
      }
    },
  }
}
