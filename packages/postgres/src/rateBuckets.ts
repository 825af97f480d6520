import { createHash } from 'node:crypto'
import { BaseError, type TokenBucketLimit, type TokenTake } from '@agentwallet/core'
import type pg from 'pg'

/**
 * Takes one token from the shared bucket `key` in ONE statement: insert a full bucket minus one, or
 * refill the existing row by the time elapsed on the database clock and take a token if one is there.
 * The conflicting row is locked for the update, so concurrent takes from any number of processes
 * serialize on it and exactly `capacity` of a burst succeed. `clock_timestamp()` is read once (the
 * CTE) before any wait on the row lock, so elapsed time is clamped at zero and `updated_at` never
 * moves back: a take that waited never mints tokens out of its own wait.
 * @example await takeToken(pool, '"agentwallet".rate_buckets', 'key:k_1', { capacity: 120, refillPerSecond: 20 })
 */
export const takeToken = async (
  db: pg.Pool,
  table: string,
  key: string,
  limit: TokenBucketLimit,
): Promise<TokenTake> => {
  const { capacity, refillPerSecond } = checkedLimit(limit)
  const refilled =
    'least($2::float8, b.tokens + $3::float8 * ' +
    'greatest(0, extract(epoch FROM EXCLUDED.updated_at - b.updated_at)::float8))'
  const tokens = `CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END`
  const at = 'greatest(b.updated_at, EXCLUDED.updated_at)'
  const { rows } = await db.query<{ granted: boolean; tokens: number }>({
    // Named: each connection parses and plans it once (it runs on every limited request).
    name: `aw_take_token_${createHash('sha256').update(table).digest('hex').slice(0, 16)}`,
    text: `WITH now AS (SELECT clock_timestamp() AS t)
     INSERT INTO ${table} AS b (key, tokens, updated_at, full_at, granted)
     SELECT $1, $2::float8 - 1, now.t, now.t + make_interval(secs => 1 / $3::float8), true FROM now
     ON CONFLICT (key) DO UPDATE SET
       tokens = ${tokens},
       updated_at = ${at},
       full_at = ${at} + make_interval(secs => ($2::float8 - (${tokens})) / $3::float8),
       granted = ${refilled} >= 1
     RETURNING granted, tokens`,
    values: [key, capacity, refillPerSecond],
  })
  const row = rows[0]!
  if (row.granted) return { ok: true }
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - row.tokens) / refillPerSecond)) }
}

/**
 * Deletes the buckets that are full again. Lossless: a missing bucket is created full, which is what
 * such a row holds. A take that refreshed the row meanwhile moved its `full_at` ahead, and the DELETE
 * re-checks the condition on the new row version, so a live bucket is never dropped.
 * @example const removed = await pruneTokenBuckets(pool, '"agentwallet".rate_buckets')
 */
export const pruneTokenBuckets = async (db: pg.Pool, table: string): Promise<number> => {
  const result = await db.query(`DELETE FROM ${table} WHERE full_at < clock_timestamp()`)
  return result.rowCount ?? 0
}

const checkedLimit = (limit: TokenBucketLimit): TokenBucketLimit => {
  const { capacity, refillPerSecond } = limit
  if (
    !Number.isInteger(capacity) ||
    capacity < 1 ||
    !(refillPerSecond > 0) ||
    !Number.isFinite(refillPerSecond)
  ) {
    throw new BaseError(
      'validation_failed',
      'A token bucket needs an integer capacity ≥ 1 and a refill rate > 0',
      {
        details: { capacity, refillPerSecond },
      },
    )
  }
  return limit
}
