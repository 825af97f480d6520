import { fromStoredEffects } from '../effects/fromStoredEffects.js'
import type { Effect, StoredEffects } from '../effects/types.js'
import type { TransactionRecord } from '../transactions/types.js'

/**
 * The effects a past intent counts by in window totals: those predicted when it was judged, and once
 * it is mined, the larger of each against what its receipt showed (an effect only one of them has
 * counts too) — so a tx that did more than predicted is counted for what it did, and native value a
 * receipt cannot show is still counted as predicted. Undefined when neither is known.
 * @example const effects = countedEffectsOf(record) ?? legacyAmountOf(record)
 */
export function countedEffectsOf(
  record: Pick<TransactionRecord, 'effects' | 'receiptEffects'>,
): Effect[] | undefined {
  const predicted = knownOf(record.effects)
  const actual = knownOf(record.receiptEffects)
  if (!actual) return predicted
  if (!predicted) return actual
  const counted = new Map(predicted.map((effect) => [keyOf(effect), effect]))
  for (const effect of actual) {
    const earlier = counted.get(keyOf(effect))
    if (!earlier || larger(effect, earlier)) counted.set(keyOf(effect), effect)
  }
  return [...counted.values()]
}

function knownOf(stored: StoredEffects | undefined): Effect[] | undefined {
  const effects = stored ? fromStoredEffects(stored) : undefined
  return effects?.status === 'known' ? effects.effects : undefined
}

function keyOf({ kind, asset, counterparty }: Effect): string {
  return [
    kind,
    asset.standard,
    asset.address.toLowerCase(),
    asset.tokenId ?? '',
    counterparty.toLowerCase(),
  ].join(':')
}

function larger(a: Effect, b: Effect): boolean {
  if (b.unlimited) return false
  return a.unlimited === true || a.amount > b.amount
}
