import type { Effect, Effects } from './types.js'

/**
 * How what a transaction did (`actual`, from its receipt) differs from what was predicted before it
 * was signed, or undefined when they agree. Compared: every move and permission a receipt can show —
 * token effects, and the native value of the top call; native value moved inside the call is in no
 * receipt, so predicted native effects other than the top call's are not compared. Symbols, decimals
 * and USD values are not compared.
 * @example const differ = effectsDiffer(predicted, actual); if (differ) emit('tx.effects_differed', …)
 */
export function effectsDiffer(
  predicted: Effects,
  actual: Effects,
  top: { to: string; value: bigint },
): { missing: Effect[]; unexpected: Effect[] } | undefined {
  if (predicted.status !== 'known' || actual.status !== 'known') return undefined
  const comparable = (effects: readonly Effect[]) =>
    effects.filter((entry) => entry.asset.standard !== 'native' || isTopCall(entry, top))
  const expected = comparable(predicted.effects)
  const seen = comparable(actual.effects)
  const missing = expected.filter((entry) => !seen.some((other) => same(entry, other)))
  const unexpected = seen.filter((entry) => !expected.some((other) => same(entry, other)))
  return missing.length === 0 && unexpected.length === 0 ? undefined : { missing, unexpected }
}

function isTopCall(entry: Effect, top: { to: string; value: bigint }): boolean {
  return entry.kind === 'out' && entry.counterparty.toLowerCase() === top.to.toLowerCase() && top.value > 0n
}

function same(a: Effect, b: Effect): boolean {
  return (
    a.kind === b.kind &&
    a.asset.standard === b.asset.standard &&
    a.asset.address.toLowerCase() === b.asset.address.toLowerCase() &&
    a.asset.tokenId === b.asset.tokenId &&
    a.counterparty.toLowerCase() === b.counterparty.toLowerCase() &&
    (a.amount === b.amount || (a.unlimited === true && b.unlimited === true))
  )
}
