import type { Effect } from '../effects/types.js'
import { matchesAsset } from './matchesAsset.js'
import { usdAsset } from './ruleSchemas.js'
import { addressIndex } from './rules/addressIndex.js'

/** An effect an amount rule counts, with its index in the intent's effects (for the decision's details). */
export type Outflow = { index: number; effect: Effect }

/**
 * The effects that take `ruleAsset` (any asset for `"usd"`) out of the wallet: every `out`, and every
 * `grant` of a non-zero or unlimited allowance — a grant lets its spender take that much later, so it
 * counts as spent now — except a grant to one of `venues`, a router that pulls only for the wallet's
 * own calls (which are judged when made).
 * @example outflowsOf('USDC', effects, context.venues).reduce((sum, { effect }) => sum + effect.amount, 0n)
 */
export function outflowsOf(
  ruleAsset: string,
  effects: readonly Effect[],
  venues: readonly string[] = [],
): Outflow[] {
  const outflows: Outflow[] = []
  effects.forEach((effect, index) => {
    if (!isOutflow(effect, venues)) return
    if (ruleAsset !== usdAsset && !matchesAsset(ruleAsset, effect.asset)) return
    outflows.push({ index, effect })
  })
  return outflows
}

/** True for an effect that spends: an `out`, or a grant of something to a spender that is not a venue. */
export function isOutflow(effect: Effect, venues: readonly string[] = []): boolean {
  if (effect.kind === 'out') return true
  if (effect.kind !== 'grant') return false
  if (effect.amount === 0n && !effect.unlimited) return false
  return !addressIndex(venues).has(effect.counterparty.toLowerCase())
}
