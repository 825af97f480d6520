import type { PolicyIntent } from '../../intents/types.js'
import { parseDuration } from '../../utils/duration.js'
import { amountDetails } from '../amountDetails.js'
import { limitToBaseUnits } from '../limitToBaseUnits.js'
import { sameAsset } from '../matchesAsset.js'
import { type SpendLimitRule, usdAsset } from '../ruleSchemas.js'
import type { PolicyContext, SpendEntry } from '../types.js'
import { errorDetails, isVerdict, ruleFigures } from './ruleFigures.js'
import type { RuleEvaluator, RuleVerdict } from './ruleVerdict.js'

/**
 * Denies when this intent plus the asset's spend in the rolling window would exceed `max`; for
 * `asset: "usd"`, when the USD values of every asset spent in the window plus this one would.
 */
export const spendLimit: RuleEvaluator<SpendLimitRule> = (rule, intent, context) => {
  const figures = ruleFigures(rule.asset, intent)
  if (!figures || isVerdict(figures)) return figures
  const { amount, decimals, symbol, usd } = figures
  const since = context.now.getTime() - parseDuration(rule.window)
  const spent = rule.asset === usdAsset ? spentUsd(context, since) : spentIn(intent, context, since)
  if (typeof spent !== 'bigint') return spent
  const limit = limitToBaseUnits(rule.max, decimals)
  const remaining = limit > spent ? limit - spent : 0n
  const details = {
    asset: rule.asset,
    symbol,
    window: rule.window,
    ...amountDetails('limit', limit, decimals),
    ...amountDetails('spent', spent, decimals),
    ...amountDetails('requested', amount, decimals),
    ...amountDetails('remaining', remaining, decimals),
    ...(usd ? { usd } : {}),
  }
  // Inclusive: spending exactly up to the limit is allowed.
  if (spent + amount > limit) {
    return {
      decision: 'deny',
      reason: `Spending ${details.requested} ${symbol} would exceed the ${rule.window} limit of ${details.limit} ${symbol} (${details.spent} already spent)`,
      details,
    }
  }
  return { decision: 'allow', reason: `Within the ${rule.window} spend limit`, details }
}

function spentIn(intent: PolicyIntent, context: PolicyContext, since: number): bigint {
  let spent = 0n
  for (const entry of context.recent) {
    if (entry.at > since && sameAsset(entry.asset, intent.asset.address)) spent += entry.amount
  }
  return spent
}

/** The window's spend in USD: each entry's stored value, any asset. One unknown value denies. */
function spentUsd(context: PolicyContext, since: number): bigint | RuleVerdict {
  let spent = 0n
  for (const entry of context.recent) {
    if (entry.at <= since) continue
    if (entry.usd?.value === undefined) return unknownSpend(entry)
    spent += entry.usd.value
  }
  return spent
}

function unknownSpend(entry: SpendEntry): RuleVerdict {
  const error = entry.usd?.error
  const why = error?.reason ?? 'no USD value was given for it'
  return {
    decision: 'deny',
    reason: `An earlier spend in the window cannot be valued in US dollars: ${why}`,
    details: {
      asset: usdAsset,
      usd: error ? errorDetails(error) : { asset: entry.asset, error: 'not_valued', reason: why },
      spentAt: new Date(entry.at).toISOString(),
    },
  }
}
