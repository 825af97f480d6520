import type { PolicyIntent } from '../../intents/types.js'
import { amountDetails } from '../amountDetails.js'
import { effectsOf } from '../effectsOf.js'
import { limitToBaseUnits } from '../limitToBaseUnits.js'
import { matchesAsset } from '../matchesAsset.js'
import type { RequireApprovalRule } from '../ruleSchemas.js'
import type { PolicyContext } from '../types.js'
import { addressIndex } from './addressIndex.js'
import { figureDetails } from './figureDetails.js'
import { isVerdict, ruleFigures } from './ruleFigures.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/**
 * Pauses an intent for a human: always, for a new recipient, above an amount (exclusive) of its
 * outflows, or (`grants`) for an allowance or operator grant to a spender that is neither listed in
 * `spenders` nor a venue of the chain. With `asset: "usd"`, `above` is in US dollars and the rule
 * covers every asset; an intent that cannot be valued is denied, not paused.
 */
export const requireApproval: RuleEvaluator<RequireApprovalRule> = (rule, intent, context) => {
  // An amount threshold needs units; without an explicit asset it speaks about the native coin.
  const asset = rule.asset ?? (rule.above !== undefined ? 'native' : undefined)
  const figures =
    rule.above === undefined || asset === undefined ? undefined : ruleFigures({ asset }, intent, context)
  if (figures && isVerdict(figures)) return figures
  const grants = rule.grants ? unlistedGrants(rule, intent, context) : []
  // A rule on one asset speaks only about intents that move it (or grant it).
  if (asset !== undefined && !figures && grants.length === 0 && !applies(asset, intent)) return undefined
  const { decimals, symbol } = figures ?? intent.asset
  const triggers: string[] = []
  let details: Record<string, unknown> = { asset: asset ?? 'any', symbol }
  if (rule.always) triggers.push('always')
  if (rule.newRecipients && context.isNewRecipient) {
    triggers.push('new_recipient')
    details.recipient = intent.to
  }
  if (grants.length > 0) {
    triggers.push('grant')
    details.grants = grants
  }
  if (rule.above !== undefined && figures) {
    const threshold = limitToBaseUnits(rule.above, decimals)
    details = {
      ...details,
      ...amountDetails('threshold', threshold, decimals),
      ...amountDetails('requested', figures.amount, decimals),
      ...figureDetails(figures),
    }
    if (figures.amount > threshold || figures.unlimited) triggers.push('above')
  }
  if (triggers.length === 0) return { decision: 'allow', reason: 'No approval trigger matched', details }
  details.triggers = triggers
  return { decision: 'require_approval', reason: approvalReason(triggers[0]!, details, intent.to), details }
}

/** Does a rule limited to one asset (without `above`) speak about this intent: does it move that asset? */
function applies(asset: string, intent: PolicyIntent): boolean {
  if (asset === 'usd') return true
  const judged = effectsOf(intent)
  const effects = judged.known ? judged.effects : []
  return matchesAsset(asset, intent.asset) || effects.some((effect) => matchesAsset(asset, effect.asset))
}

/** The grants (of the rule's asset, when it names one) to spenders neither listed nor venues. */
function unlistedGrants(
  rule: RequireApprovalRule,
  intent: PolicyIntent,
  context: PolicyContext,
): Record<string, unknown>[] {
  const judged = effectsOf(intent)
  if (!judged.known) return []
  const listed = addressIndex(rule.spenders ?? [])
  const venues = addressIndex(context.venues ?? [])
  const found: Record<string, unknown>[] = []
  judged.effects.forEach((effect, index) => {
    if (effect.kind !== 'grant' || (effect.amount === 0n && !effect.unlimited)) return
    if (rule.asset !== undefined && rule.asset !== 'usd' && !matchesAsset(rule.asset, effect.asset)) return
    const spender = effect.counterparty.toLowerCase()
    if (listed.has(spender) || venues.has(spender)) return
    found.push({
      effect: index,
      spender: effect.counterparty,
      asset: effect.asset.address,
      symbol: effect.asset.symbol,
      standard: effect.asset.standard,
      amountRaw: effect.amount.toString(),
      ...(effect.unlimited ? { unlimited: true } : {}),
    })
  })
  return found
}

function approvalReason(trigger: string, details: Record<string, unknown>, to: string): string {
  if (trigger === 'always') return 'Every transaction under this rule needs human approval'
  if (trigger === 'new_recipient') return `First transaction to ${to} needs human approval`
  if (trigger === 'grant') {
    const [first] = details.grants as { spender: string; symbol: string }[]
    return `An allowance of ${first!.symbol} to ${first!.spender}, a spender not on the allowed list, needs human approval`
  }
  if (details.unlimited)
    return `An unlimited allowance is above the approval threshold of ${details.threshold} ${details.symbol}`
  return `Amount ${details.requested} ${details.symbol} is above the approval threshold of ${details.threshold} ${details.symbol}`
}
