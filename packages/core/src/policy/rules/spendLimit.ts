import type { UsdPriceError } from '../../intents/types.js'
import { parseDuration } from '../../schemas/parseDuration.js'
import { amountDetails } from '../amountDetails.js'
import { limitToBaseUnits } from '../limitToBaseUnits.js'
import { sameAsset } from '../matchesAsset.js'
import { outflowsOf } from '../outflowsOf.js'
import { type SpendLimitRule, usdAsset } from '../ruleSchemas.js'
import type { PolicyContext, SpendEntry } from '../types.js'
import { figureDetails } from './figureDetails.js'
import { errorDetails, isVerdict, type RuleFigures, ruleFigures } from './ruleFigures.js'
import type { RuleEvaluator, RuleVerdict } from './ruleVerdict.js'

/**
 * Denies when this intent's outflows of the rule's asset plus the window's would exceed `max`; for
 * `asset: "usd"`, when the USD values of every asset's outflows in the window plus this one's would.
 * Past intents count by their stored effects (those made before effects were stored, by their
 * asset and amount). An unlimited grant exceeds any limit.
 */
export const spendLimit: RuleEvaluator<SpendLimitRule> = (rule, intent, context) => {
  const figures = ruleFigures(rule, intent, context)
  if (!figures || isVerdict(figures)) return figures
  const { amount, decimals, symbol } = figures
  const since = context.now.getTime() - parseDuration(rule.window)
  const spent =
    rule.asset === usdAsset
      ? spentUsd(rule, context, since)
      : spentIn(rule.asset, figures, intent.asset.address, context, since)
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
    ...figureDetails(figures),
  }
  if (figures.unlimited) {
    return {
      decision: 'deny',
      reason: `An unlimited allowance of ${figures.unlimited.symbol} to ${figures.unlimited.counterparty} would exceed the ${rule.window} limit of ${details.limit} ${symbol}`,
      details,
    }
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

/**
 * The window's outflows of the rule's asset. A past unlimited grant went through a human (or no
 * rule): it is not counted again. A record without effects counts when its asset is one this
 * intent spends under the rule (a symbol names tokens by what the effects carry).
 */
function spentIn(
  ruleAsset: string,
  figures: RuleFigures,
  intentAsset: string,
  context: PolicyContext,
  since: number,
): bigint {
  const assets = new Set(figures.counted.map((counted) => String(counted.asset).toLowerCase()))
  assets.add(intentAsset.toLowerCase())
  let spent = 0n
  for (const entry of context.recent) {
    if (entry.at <= since) continue
    if (entry.effects) {
      for (const { effect } of outflowsOf(ruleAsset, entry.effects, context.venues))
        if (!effect.unlimited) spent += effect.amount
      continue
    }
    const named = ruleAsset === 'native' || ruleAsset.startsWith('0x')
    if (named ? sameAsset(ruleAsset, entry.asset) : assets.has(entry.asset.toLowerCase()))
      spent += entry.amount
  }
  return spent
}

/** The window's spend in USD: each outflow's stored value, any asset. One unknown value denies (unless skipped). */
function spentUsd(rule: SpendLimitRule, context: PolicyContext, since: number): bigint | RuleVerdict {
  let spent = 0n
  for (const entry of context.recent) {
    if (entry.at <= since) continue
    const values = entry.effects
      ? outflowsOf(usdAsset, entry.effects, context.venues)
          .filter(({ effect }) => !effect.unlimited)
          .map(({ effect }) => ({ usd: effect.usd, asset: effect.asset.address }))
      : [{ usd: entry.usd, asset: entry.asset }]
    for (const { usd, asset } of values) {
      if (usd?.value !== undefined) spent += usd.value
      else if (rule.unpriced !== 'skip' || usd?.error?.code !== 'no_price_feed')
        return unknownSpend(entry, usd?.error, asset)
    }
  }
  return spent
}

function unknownSpend(entry: SpendEntry, error: UsdPriceError | undefined, asset: string): RuleVerdict {
  const why = error?.reason ?? 'no USD value was given for it'
  return {
    decision: 'deny',
    reason: `An earlier spend in the window cannot be valued in US dollars: ${why}`,
    details: {
      asset: usdAsset,
      usd: error ? errorDetails(error) : { asset, error: 'not_valued', reason: why },
      spentAt: new Date(entry.at).toISOString(),
    },
  }
}
