import { effectsHash } from './effectsHash.js'
import type { StoredEffects } from './types.js'

/**
 * The effects an approval shows and binds to, with their hash (nothing for an intent without).
 * @example const approval = { id, ...boundEffects(transaction.effects), … }
 */
export function boundEffects(
  effects: StoredEffects | undefined,
): { effects: StoredEffects; effectsHash: string } | Record<string, never> {
  return effects ? { effects, effectsHash: effectsHash(effects) } : {}
}
