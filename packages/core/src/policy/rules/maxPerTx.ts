import { amountDetails } from '../amountDetails.js'
import { limitToBaseUnits } from '../limitToBaseUnits.js'
import { matchesAsset } from '../matchesAsset.js'
import type { MaxPerTxRule } from '../ruleSchemas.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/** Denies a single intent whose amount is above `max` (inclusive limit) in the rule's asset. */
export const maxPerTx: RuleEvaluator<MaxPerTxRule> = (rule, intent) => {
  if (!matchesAsset(rule.asset, intent.asset)) return undefined
  const { decimals, symbol } = intent.asset
  const limit = limitToBaseUnits(rule.max, decimals)
  const details = {
    asset: rule.asset,
    symbol,
    ...amountDetails('limit', limit, decimals),
    ...amountDetails('requested', intent.amount, decimals),
  }
  if (intent.amount > limit) {
    return {
      decision: 'deny',
      reason: `Amount ${details.requested} ${symbol} is above the per-transaction limit of ${details.limit} ${symbol}`,
      details,
    }
  }
  return { decision: 'allow', reason: 'Within the per-transaction limit', details }
}
