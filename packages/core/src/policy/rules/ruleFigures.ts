import type { PolicyIntent, UsdPriceError } from '../../intents/types.js'
import { formatAmount } from '../../utils/amounts.js'
import { compileRule } from '../compileRule.js'
import { effectsOf } from '../effectsOf.js'
import { matchesAsset } from '../matchesAsset.js'
import { type Outflow, outflowsOf } from '../outflowsOf.js'
import { usdAsset } from '../ruleSchemas.js'
import type { PolicyContext } from '../types.js'
import { formatUsd, usdDecimals } from '../usdValueOf.js'
import type { RuleVerdict } from './ruleVerdict.js'

/** What an amount rule measures: its asset, and for a USD rule what an unpriced asset does. */
export type AmountRule = { asset: string; unpriced?: 'deny' | 'skip' | undefined }

/**
 * What an amount rule judges: the sum of the intent's outflows of the rule's asset in the rule's unit,
 * each counted effect (`counted`), an unlimited grant among them, and for a USD rule how it was valued.
 */
export type RuleFigures = {
  amount: bigint
  decimals: number
  symbol: string
  /** `details.counted`: each effect counted, by its index in `intent.effects`. */
  counted: Record<string, unknown>[]
  /** An unlimited grant of the rule's asset: more than any limit. */
  unlimited?: Record<string, unknown> | undefined
  /** Set when the effects are not known and an `unknown_effects` rule judges them: only the floor was counted. */
  effects?: 'unknown' | 'reverted' | 'absent' | undefined
  /** For a USD rule, `details.usd`: the value and, for one asset, its amount and the price used. */
  usd?: Record<string, unknown> | undefined
}

/**
 * The figures an amount rule (max_per_tx, spend_limit, require_approval above) measures the intent
 * by: the sum of its outflows (`out` effects and grants, `outflowsOf`) of the rule's asset; for a
 * `usd` rule, of every asset, each valued in dollars — a deny verdict when one cannot be valued
 * (never counted as zero). When the effects are not known, a rule on the wallet's own native coin
 * still counts the call's value (all a call can take of it); any other rule denies, unless an
 * `unknown_effects` rule is in scope to judge them (it then counts what the fields declare).
 * Undefined when the rule does not apply to this intent.
 * @example const figures = ruleFigures(rule, intent, context); if (figures && isVerdict(figures)) return figures
 */
export function ruleFigures(
  rule: AmountRule,
  intent: PolicyIntent,
  context: PolicyContext,
): RuleFigures | RuleVerdict | undefined {
  const judged = effectsOf(intent)
  let effects = judged.known ? judged.effects : judged.floor
  let unknown: RuleFigures['effects']
  if (!judged.known) {
    const measured =
      intent.via === undefined && rule.asset !== usdAsset && matchesAsset(rule.asset, native(intent))
    if (!measured && !judgesUnknownEffects(context)) {
      return {
        decision: 'deny',
        reason: `The effects of this call are not known (${judged.reason}), so what it spends of ${rule.asset} cannot be bounded`,
        details: { asset: rule.asset, effects: judged.status, effectsReason: judged.reason },
      }
    }
    if (!measured) unknown = judged.status
    if (measured) effects = judged.floor.filter((effect) => effect.asset.address === 'native')
  }
  const outflows = outflowsOf(rule.asset, effects, context.venues).filter(
    // A budget over priced assets does not speak of an unlimited grant of an asset with no price.
    ({ effect }) => !(effect.unlimited && skips(rule, effect.usd?.error)),
  )
  // Nothing of the rule's asset leaves: the rule still speaks (a zero, with its window's figures)
  // where the intent names that asset, as a zero-value send does; otherwise it does not apply.
  if (outflows.length === 0 && !unknown && rule.asset !== usdAsset && !matchesAsset(rule.asset, intent.asset))
    return undefined
  const unlimited = outflows.find(({ effect }) => effect.unlimited)
  const counted = outflows.map(countedDetails)
  const common = { counted, ...(unlimited ? { unlimited: countedDetails(unlimited) } : {}), effects: unknown }
  if (rule.asset !== usdAsset) {
    const [first] = outflows
    const { decimals, symbol } = first?.effect.asset ?? intent.asset
    return { amount: sum(outflows), decimals, symbol, ...common }
  }
  if (unlimited) return { amount: 0n, decimals: usdDecimals, symbol: 'USD', ...common }
  let value = 0n
  const skipped: Record<string, unknown>[] = []
  for (const outflow of outflows) {
    const valued = outflow.effect.usd
    if (valued?.value !== undefined) {
      value += valued.value
      continue
    }
    const error = valued?.error ?? notValued(outflow)
    if (skips(rule, error)) {
      skipped.push({ effect: outflow.index, ...errorDetails(error) })
      continue
    }
    const { amount, symbol } = spentOf(outflow)
    return {
      decision: 'deny',
      reason: `Cannot value ${amount} ${symbol} in US dollars: ${error.reason}`,
      details: { asset: usdAsset, counted, usd: { ...spentOf(outflow), ...errorDetails(error) } },
    }
  }
  const single = outflows.length === 1 ? outflows[0]! : undefined
  const usd = {
    value: formatUsd(value),
    ...(single ? { ...spentOf(single), ...single.effect.usd?.price } : {}),
    ...(skipped.length > 0 ? { unpriced: skipped } : {}),
  }
  return { amount: value, decimals: usdDecimals, symbol: 'USD', ...common, usd }
}

/** True for a verdict (what `ruleFigures` answers when the rule must deny for want of a price). */
export function isVerdict(value: RuleFigures | RuleVerdict): value is RuleVerdict {
  return 'decision' in value
}

/** A price error as decision details: `error` is its code, beside the reason and the feed. */
export function errorDetails({ code, asset, symbol, ...rest }: UsdPriceError): Record<string, unknown> {
  return { asset, symbol, error: code, ...rest }
}

/** True when an enabled `unknown_effects` rule is in scope: it, not the amount rules, judges unknown effects. */
export function judgesUnknownEffects(context: PolicyContext): boolean {
  return context.rules.some(({ rule }) => {
    const compiled = compileRule(rule)
    return compiled.ok && compiled.rule.enabled !== false && compiled.rule.type === 'unknown_effects'
  })
}

function skips(rule: AmountRule, error: UsdPriceError | undefined): boolean {
  return rule.asset === usdAsset && rule.unpriced === 'skip' && error?.code === 'no_price_feed'
}

function sum(outflows: readonly Outflow[]): bigint {
  return outflows.reduce((total, { effect }) => total + effect.amount, 0n)
}

function native(intent: PolicyIntent) {
  return {
    address: 'native' as const,
    symbol: intent.asset.address === 'native' ? intent.asset.symbol : '',
    decimals: 18,
  }
}

function spentOf({ effect }: Outflow) {
  return {
    asset: effect.asset.address,
    symbol: effect.asset.symbol,
    amount: formatAmount(effect.amount, effect.asset.decimals),
  }
}

/** One counted effect as decision details: which, what kind, to whom, how much (and its USD value). */
function countedDetails(outflow: Outflow): Record<string, unknown> {
  const { effect } = outflow
  return {
    effect: outflow.index,
    kind: effect.kind,
    counterparty: effect.counterparty,
    ...spentOf(outflow),
    amountRaw: effect.amount.toString(),
    ...(effect.asset.tokenId === undefined ? {} : { tokenId: effect.asset.tokenId.toString() }),
    ...(effect.unlimited ? { unlimited: true } : {}),
    ...(effect.usd?.value === undefined ? {} : { usd: formatUsd(effect.usd.value) }),
  }
}

// Core values every outflow before a USD rule sees it; an effect without a value came from elsewhere.
function notValued({ effect }: Outflow): UsdPriceError {
  return {
    code: 'not_valued',
    asset: effect.asset.address,
    symbol: effect.asset.symbol,
    reason: 'no USD value was given for this intent',
  }
}
