/**
 * Delay before attempt `attempt + 1`: exponential from `baseMs`, capped at `maxMs`, with ±20%
 * jitter so receivers recovering from an outage are not hit by every sender at the same instant.
 * @example computeBackoff(3, { baseMs: 1000, maxMs: 3_600_000 }) // ≈ 8000 ms
 */
export function computeBackoff(
  attempt: number,
  options: { baseMs: number; maxMs: number },
  random: () => number = Math.random,
): number {
  const exponential = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(exponential * (0.8 + 0.4 * random()))
}

/** Whether a failed attempt is worth retrying: no response, 408, 429 or 5xx. */
export function isRetryable(statusCode: number | null): boolean {
  return statusCode === null || statusCode === 408 || statusCode === 429 || statusCode >= 500
}
