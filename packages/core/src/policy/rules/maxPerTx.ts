import { amountDetails } from '../amountDetails.js'
import { limitToBaseUnits } from '../limitToBaseUnits.js'
import type { MaxPerTxRule } from '../ruleSchemas.js'
import { isVerdict, ruleFigures } from './ruleFigures.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/**
 * Denies a single intent whose amount is above `max` (inclusive limit) in the rule's asset; for
 * `asset: "usd"`, any intent whose USD value is above `max` dollars.
 */
export const maxPerTx: RuleEvaluator<MaxPerTxRule> = (rule, intent) => {
  const figures = ruleFigures(rule.asset, intent)
  if (!figures || isVerdict(figures)) return figures
  const { amount, decimals, symbol, usd } = figures
  const limit = limitToBaseUnits(rule.max, decimals)
  const details = {
    asset: rule.asset,
    symbol,
    ...amountDetails('limit', limit, decimals),
    ...amountDetails('requested', amount, decimals),
    ...(usd ? { usd } : {}),
  }
  if (amount > limit) {
    return {
      decision: 'deny',
      reason: `Amount ${details.requested} ${symbol} is above the per-transaction limit of ${details.limit} ${symbol}`,
      details,
    }
  }
  return { decision: 'allow', reason: 'Within the per-transaction limit', details }
}
