import { amountDetails } from '../amountDetails.js'
import { limitToBaseUnits } from '../limitToBaseUnits.js'
import type { MaxPerTxRule } from '../ruleSchemas.js'
import { figureDetails } from './figureDetails.js'
import { isVerdict, ruleFigures } from './ruleFigures.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/**
 * Denies a single intent whose outflows of the rule's asset (its `out` effects and grants) sum above
 * `max` (inclusive limit); for `asset: "usd"`, whose outflows of every asset are worth more than `max`
 * dollars. An unlimited grant is above any limit.
 */
export const maxPerTx: RuleEvaluator<MaxPerTxRule> = (rule, intent, context) => {
  const figures = ruleFigures(rule, intent, context)
  if (!figures || isVerdict(figures)) return figures
  const { amount, decimals, symbol } = figures
  const limit = limitToBaseUnits(rule.max, decimals)
  const details = {
    asset: rule.asset,
    symbol,
    ...amountDetails('limit', limit, decimals),
    ...amountDetails('requested', amount, decimals),
    ...figureDetails(figures),
  }
  if (figures.unlimited) {
    return {
      decision: 'deny',
      reason: `An unlimited allowance of ${figures.unlimited.symbol} to ${figures.unlimited.counterparty} is above the per-transaction limit of ${details.limit} ${symbol}`,
      details,
    }
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
