import { CliError } from './cliError.js'
import type { Env } from './loadConfig.js'

/** How the tracker rebroadcasts and replaces submitted txs (core's `CoreOptions` of the same names). */
export type FeeBumping = {
  rebroadcastAfterMs: number
  replaceStuckAfterMs: number | false
  maxFeeBumpMultiplier: number
}

/** The flags' values `parseFeeBumping` reads (`parseArgs` strings). */
type Values = {
  'rebroadcast-after-ms'?: string | undefined
  'replace-stuck-after-ms'?: string | undefined
  'max-fee-bump'?: string | undefined
}

/**
 * The tracker's rebroadcast delay, stuck-replacement delay (or `off`) and fee-bump cap: flag over env
 * over config file over core's defaults (30 s, 2 min, 5×); nonsense stops the start, named.
 * @example parseFeeBumping({ 'replace-stuck-after-ms': 'off' }, {}, {}) // { replaceStuckAfterMs: false, … }
 */
export function parseFeeBumping(values: Values, env: Env, file: Record<string, unknown>): FeeBumping {
  return {
    rebroadcastAfterMs: parseDelay(
      '--rebroadcast-after-ms',
      values['rebroadcast-after-ms'] ?? env.AGENTWALLET_REBROADCAST_AFTER_MS ?? file.rebroadcastAfterMs,
      30_000,
    ),
    replaceStuckAfterMs: parseDelayOrOff(
      values['replace-stuck-after-ms'] ?? env.AGENTWALLET_REPLACE_STUCK_AFTER_MS ?? file.replaceStuckAfterMs,
    ),
    maxFeeBumpMultiplier: parseMultiplier(
      values['max-fee-bump'] ?? env.AGENTWALLET_MAX_FEE_BUMP ?? file.maxFeeBumpMultiplier,
    ),
  }
}

/** Whole milliseconds, at least 1 s (a tighter loop only hammers the node), at most a day. */
function parseDelay(flag: string, value: unknown, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const text = String(value).trim()
  const ms = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!(ms >= 1000 && ms <= 86_400_000))
    throw new CliError(`${flag} must be whole milliseconds from 1000 to 86400000, not "${text}"`)
  return ms
}

function parseDelayOrOff(value: unknown): number | false {
  if (value === false || value === 'off') return false
  return parseDelay('--replace-stuck-after-ms', value, 120_000)
}

/**
 * How far replacements may raise the first signature's max fee: more than 1 (else nothing could be
 * replaced), at most 100 (a typo should not let a stuck tx burn a hundredfold).
 */
function parseMultiplier(value: unknown): number {
  if (value === undefined || value === '') return 5
  const text = String(value).trim()
  const multiplier = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN
  if (!(multiplier > 1 && multiplier <= 100))
    throw new CliError(`--max-fee-bump must be a number above 1 and at most 100 (e.g. 5), not "${text}"`)
  return multiplier
}
