import { ValidationError } from '../errors/errors.js'

const unitMs = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

const durationPattern = /^([1-9]\d{0,6})(s|m|h|d)$/

/** Windows longer than a year would make core read (and keep) an unbounded spend history. */
export const maxDurationMs = 366 * unitMs.d

/**
 * Parses a window such as "30s", "15m", "1h", "24h" or "7d" into milliseconds.
 * @example parseDuration('24h') // 86_400_000
 */
export function parseDuration(value: string): number {
  const match = typeof value === 'string' ? durationPattern.exec(value) : null
  if (!match) {
    throw new ValidationError(
      'Duration must be a positive whole number followed by s, m, h or d (e.g. "24h")',
      {
        details: { reason: 'bad_duration', value: String(value) },
      },
    )
  }
  const ms = Number(match[1]) * unitMs[match[2] as keyof typeof unitMs]
  if (ms > maxDurationMs) {
    throw new ValidationError('Duration must be at most 366d', {
      details: { reason: 'duration_too_long', value, maxMs: maxDurationMs },
    })
  }
  return ms
}
