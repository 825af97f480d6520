import type { Effect, Effects, StoredEffect, StoredEffects } from '../effects/types.js'
import type { UsdValuation } from '../intents/types.js'
import { formatUsd, parseUsd } from './usdValueOf.js'

/**
 * Effects as a transaction record keeps them: amounts, token ids and USD values as decimal strings.
 * @example const record = { ...base, effects: storeEffects(intent.effects) }
 */
export function storeEffects(effects: Effects): StoredEffects {
  if (effects.status !== 'known') return effects
  return {
    status: 'known',
    source: effects.source,
    effects: effects.effects.map(storeEffect),
    ...(effects.gasUsed === undefined ? {} : { gasUsed: effects.gasUsed.toString() }),
  }
}

/**
 * The effects a record stored, as the policy engine reads them.
 * @example const effects = record.effects ? readStoredEffects(record.effects) : undefined
 */
export function readStoredEffects(stored: StoredEffects): Effects {
  if (stored.status !== 'known') return stored
  return {
    status: 'known',
    source: stored.source,
    effects: stored.effects.map(readStoredEffect),
    ...(stored.gasUsed === undefined ? {} : { gasUsed: BigInt(stored.gasUsed) }),
  }
}

function storeEffect({ asset, amount, usd, ...rest }: Effect): StoredEffect {
  const { tokenId, ...named } = asset
  return {
    ...rest,
    asset: { ...named, ...(tokenId === undefined ? {} : { tokenId: tokenId.toString() }) },
    amount: amount.toString(),
    ...(usd?.value === undefined ? {} : { usd: { value: formatUsd(usd.value), ...usd.price } }),
  }
}

function readStoredEffect({ asset, amount, usd, ...rest }: StoredEffect): Effect {
  const { tokenId, ...named } = asset
  return {
    ...rest,
    asset: { ...named, ...(tokenId === undefined ? {} : { tokenId: BigInt(tokenId) }) },
    amount: BigInt(amount),
    ...(usd ? { usd: storedValuation(usd) } : {}),
  }
}

function storedValuation({ value, ...price }: NonNullable<StoredEffect['usd']>): UsdValuation {
  return {
    value: parseUsd(value),
    ...(price.price === undefined ? {} : { price: price as unknown as NonNullable<UsdValuation['price']> }),
  }
}
