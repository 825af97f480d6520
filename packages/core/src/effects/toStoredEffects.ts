import { formatAmount } from '../utils/amounts.js'
import type { Effect, Effects, StoredEffect, StoredEffects } from './types.js'

/** Decimals of a USD value (`usdDecimals` of policy/usdValueOf.ts: 10^-18 USD). */
export const storedUsdDecimals = 18

/**
 * `effects` as records and answers keep them: amounts, token ids and gas as decimal strings, a USD
 * value as dollars (a failed valuation is not stored, as for the transaction's own `usd`).
 * @example toStoredEffects(effects) // { status: 'known', effects: [{ amount: '5000000', … }], … }
 */
export function toStoredEffects(effects: Effects): StoredEffects {
  if (effects.status !== 'known') return effects
  const { gasUsed, ...rest } = effects
  return {
    ...rest,
    effects: effects.effects.map(toStoredEffect),
    ...(gasUsed === undefined ? {} : { gasUsed: gasUsed.toString() }),
  }
}

function toStoredEffect({ asset, amount, usd, ...rest }: Effect): StoredEffect {
  const { tokenId, ...token } = asset
  return {
    ...rest,
    asset: tokenId === undefined ? token : { ...token, tokenId: tokenId.toString() },
    amount: amount.toString(),
    ...(usd?.value === undefined
      ? {}
      : { usd: { value: formatAmount(usd.value, storedUsdDecimals), ...usd.price } }),
  }
}
