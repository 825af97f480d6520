import { requestHash } from '../idempotency/requestHash.js'
import type { StoredEffects } from './types.js'

/**
 * A stable hash of what a transaction does (key order and USD values aside: a price move is not a
 * change of effects). An approval binds to it.
 * @example const hash = effectsHash(record.effects)
 */
export function effectsHash(effects: StoredEffects): string {
  if (effects.status !== 'known') return requestHash({ status: effects.status })
  return requestHash({
    status: effects.status,
    effects: effects.effects.map(({ usd: _usd, ...effect }) => effect),
  })
}
