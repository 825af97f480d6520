import type { AllowRecipientsRule } from '../ruleSchemas.js'
import { addressIndex } from './addressIndex.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/**
 * Denies a value transfer to anyone not on the list: a transfer, an x402 payment (its payee), or a
 * payment out of a Safe (`via`, whose `to` is the real recipient or spender). Other contract calls
 * are `allow_contracts`' job.
 */
export const allowRecipients: RuleEvaluator<AllowRecipientsRule> = (rule, intent) => {
  if (intent.kind !== 'transfer' && intent.kind !== 'x402_payment' && intent.via === undefined)
    return undefined
  const details = { recipient: intent.to, listSize: rule.addresses.length }
  if (!addressIndex(rule.addresses).has(intent.to.toLowerCase())) {
    return {
      decision: 'deny',
      reason: `Recipient ${intent.to} is not on the allowed recipients list`,
      details,
    }
  }
  return { decision: 'allow', reason: 'Recipient is on the allowed list', details }
}
