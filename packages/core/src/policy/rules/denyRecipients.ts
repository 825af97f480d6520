import type { DenyRecipientsRule } from '../ruleSchemas.js'
import { addressIndex } from './addressIndex.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/** Denies any intent whose `to` (recipient or called contract) is on the list. */
export const denyRecipients: RuleEvaluator<DenyRecipientsRule> = (rule, intent) => {
  const details = { recipient: intent.to }
  if (addressIndex(rule.addresses).has(intent.to.toLowerCase())) {
    return { decision: 'deny', reason: `Recipient ${intent.to} is on the denied recipients list`, details }
  }
  return { decision: 'allow', reason: 'Recipient is not on the denied list', details }
}
