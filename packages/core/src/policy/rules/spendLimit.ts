import { parseDuration } from '../../utils/duration.js'
import { amountDetails } from '../amountDetails.js'
import { limitToBaseUnits } from '../limitToBaseUnits.js'
import { matchesAsset, sameAsset } from '../matchesAsset.js'
import type { SpendLimitRule } from '../ruleSchemas.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/** Denies when this intent plus the asset's spend in the rolling window would exceed `max`. */
export const spendLimit: RuleEvaluator<SpendLimitRule> = (rule, intent, context) => {
  if (!matchesAsset(rule.asset, intent.asset)) return undefined
  const { decimals, symbol } = intent.asset
  const since = context.now.getTime() - parseDuration(rule.window)
  let spent = 0n
  for (const entry of context.recent) {
    if (entry.at > since && sameAsset(entry.asset, intent.asset.address)) spent += entry.amount
  }
  const limit = limitToBaseUnits(rule.max, decimals)
  const remaining = limit > spent ? limit - spent : 0n
  const details = {
    asset: rule.asset,
    symbol,
    window: rule.window,
    ...amountDetails('limit', limit, decimals),
    ...amountDetails('spent', spent, decimals),
    ...amountDetails('requested', intent.amount, decimals),
    ...amountDetails('remaining', remaining, decimals),
  }
  // Inclusive: spending exactly up to the limit is allowed.
  if (spent + intent.amount > limit) {
    return {
      decision: 'deny',
      reason: `Spending ${details.requested} ${symbol} would exceed the ${rule.window} limit of ${details.limit} ${symbol} (${details.spent} already spent)`,
      details,
    }
  }
  return { decision: 'allow', reason: `Within the ${rule.window} spend limit`, details }
}
