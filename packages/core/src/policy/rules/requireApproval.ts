import { amountDetails } from '../amountDetails.js'
import { limitToBaseUnits } from '../limitToBaseUnits.js'
import type { RequireApprovalRule } from '../ruleSchemas.js'
import { isVerdict, ruleFigures } from './ruleFigures.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/**
 * Pauses an intent for a human: always, for a new recipient, or above an amount (exclusive). With
 * `asset: "usd"`, `above` is in US dollars and the rule covers every asset; an intent that cannot be
 * valued is denied, not paused.
 */
export const requireApproval: RuleEvaluator<RequireApprovalRule> = (rule, intent, context) => {
  // An amount threshold needs units; without an explicit asset it speaks about the native coin.
  const asset = rule.asset ?? (rule.above !== undefined ? 'native' : undefined)
  const figures = asset === undefined ? undefined : ruleFigures(asset, intent)
  if (asset !== undefined && !figures) return undefined
  if (figures && isVerdict(figures)) return figures
  const { decimals, symbol } = figures ?? intent.asset
  const triggers: string[] = []
  let details: Record<string, unknown> = { asset: asset ?? 'any', symbol }
  if (rule.always) triggers.push('always')
  if (rule.newRecipients && context.isNewRecipient) {
    triggers.push('new_recipient')
    details.recipient = intent.to
  }
  if (rule.above !== undefined && figures) {
    const threshold = limitToBaseUnits(rule.above, decimals)
    details = {
      ...details,
      ...amountDetails('threshold', threshold, decimals),
      ...amountDetails('requested', figures.amount, decimals),
      ...(figures.usd ? { usd: figures.usd } : {}),
    }
    if (figures.amount > threshold) triggers.push('above')
  }
  if (triggers.length === 0) return { decision: 'allow', reason: 'No approval trigger matched', details }
  details.triggers = triggers
  return { decision: 'require_approval', reason: approvalReason(triggers[0]!, details, intent.to), details }
}

function approvalReason(trigger: string, details: Record<string, unknown>, to: string): string {
  if (trigger === 'always') return 'Every transaction under this rule needs human approval'
  if (trigger === 'new_recipient') return `First transaction to ${to} needs human approval`
  return `Amount ${details.requested} ${details.symbol} is above the approval threshold of ${details.threshold} ${details.symbol}`
}
