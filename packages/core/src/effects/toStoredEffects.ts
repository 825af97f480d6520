import { formatAmount } from '../utils/amounts.js'
import type { Effects, StoredEffects } from './types.js'

/** USD values carry 18 decimals (`usdDecimals`, policy/usdValueOf.ts). */
const usdDecimals = 18

/**
 * Effects as records and answers keep them: amounts, token ids and gas as decimal strings, USD as
 * its stored value.
 * @example record.effects = toStoredEffects(await predictEffects(chain, { from }, call))
 */
export function toStoredEffects(effects: Effects): StoredEffects {
  if (effects.status !== 'known') return effects
  return {
    status: 'known',
    source: effects.source,
    effects: effects.effects.map(({ asset: { tokenId, ...asset }, amount, usd, ...effect }) => ({
      ...effect,
      asset: { ...asset, ...(tokenId === undefined ? {} : { tokenId: tokenId.toString() }) },
      amount: amount.toString(),
      ...(usd?.value === undefined
        ? {}
        : { usd: { value: formatAmount(usd.value, usdDecimals), ...usd.price } }),
    })),
    ...(effects.gasUsed === undefined ? {} : { gasUsed: effects.gasUsed.toString() }),
  }
}
