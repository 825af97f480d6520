import type { PolicyIntent, UsdPriceError } from '../../intents/types.js'
import { formatAmount } from '../../utils/amounts.js'
import { matchesAsset } from '../matchesAsset.js'
import { usdAsset } from '../ruleSchemas.js'
import { formatUsd, usdDecimals } from '../usdValueOf.js'
import type { RuleVerdict } from './ruleVerdict.js'

/** What an amount rule judges: a figure in the rule's unit, and for a USD rule how it was valued. */
export type RuleFigures = {
  amount: bigint
  decimals: number
  symbol: string
  /** For a USD rule, `details.usd`: the intent's asset and amount, its USD value and the price used. */
  usd?: Record<string, unknown> | undefined
}

/**
 * The figures an amount rule (max_per_tx, spend_limit, require_approval above) measures the intent
 * by: its amount when the rule's asset names the intent's asset; for a `usd` rule, whatever the
 * asset, its USD value — or a deny verdict when that value is unknown (never counted as zero).
 * Undefined when the rule does not apply to this intent.
 * @example const figures = ruleFigures(rule.asset, intent); if (figures && isVerdict(figures)) return figures
 */
export function ruleFigures(ruleAsset: string, intent: PolicyIntent): RuleFigures | RuleVerdict | undefined {
  if (ruleAsset !== usdAsset) {
    if (!matchesAsset(ruleAsset, intent.asset)) return undefined
    return { amount: intent.amount, decimals: intent.asset.decimals, symbol: intent.asset.symbol }
  }
  const valued = intent.usd
  const spent = {
    asset: intent.asset.address,
    symbol: intent.asset.symbol,
    amount: formatAmount(intent.amount, intent.asset.decimals),
  }
  if (valued?.value === undefined) {
    const error = valued?.error ?? notValued(intent)
    return {
      decision: 'deny',
      reason: `Cannot value ${spent.amount} ${spent.symbol} in US dollars: ${error.reason}`,
      details: { asset: usdAsset, usd: { ...spent, ...errorDetails(error) } },
    }
  }
  return {
    amount: valued.value,
    decimals: usdDecimals,
    symbol: 'USD',
    usd: { value: formatUsd(valued.value), ...spent, ...valued.price },
  }
}

/** True for a verdict (what `ruleFigures` answers when the rule must deny for want of a price). */
export function isVerdict(value: RuleFigures | RuleVerdict): value is RuleVerdict {
  return 'decision' in value
}

/** A price error as decision details: `error` is its code, beside the reason and the feed. */
export function errorDetails({ code, asset, symbol, ...rest }: UsdPriceError): Record<string, unknown> {
  return { asset, symbol, error: code, ...rest }
}

// Core values every intent before a USD rule sees it; an intent without a value came from elsewhere.
function notValued(intent: PolicyIntent): UsdPriceError {
  return {
    code: 'not_valued',
    asset: intent.asset.address,
    symbol: intent.asset.symbol,
    reason: 'no USD value was given for this intent',
  }
}
