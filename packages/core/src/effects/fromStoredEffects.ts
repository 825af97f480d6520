import type { UsdPrice } from '../intents/types.js'
import { parseAmount } from '../utils/amounts.js'
import { storedUsdDecimals } from './toStoredEffects.js'
import type { Effect, Effects, StoredEffect, StoredEffects } from './types.js'

/**
 * The `Effects` a record keeps (`toStoredEffects`), with bigints again.
 * @example fromStoredEffects(record.effects).status === 'known'
 */
export function fromStoredEffects(stored: StoredEffects): Effects {
  if (stored.status !== 'known') return stored
  const { gasUsed, ...rest } = stored
  return {
    ...rest,
    effects: stored.effects.map(fromStoredEffect),
    ...(gasUsed === undefined ? {} : { gasUsed: BigInt(gasUsed) }),
  }
}

function fromStoredEffect({ asset, amount, usd, ...rest }: StoredEffect): Effect {
  const { tokenId, ...token } = asset
  const { value, ...price }: { value?: string; [field: string]: unknown } = usd ?? {}
  return {
    ...rest,
    asset: tokenId === undefined ? token : { ...token, tokenId: BigInt(tokenId) },
    amount: BigInt(amount),
    ...(value === undefined
      ? {}
      : {
          usd: {
            value: parseAmount(value, storedUsdDecimals),
            ...(price.price === undefined ? {} : { price: price as UsdPrice }),
          },
        }),
  }
}
