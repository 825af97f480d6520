import { effectCounterparties } from '../effectCounterparties.js'
import type { DenyRecipientsRule } from '../ruleSchemas.js'
import { addressIndex } from './addressIndex.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/**
 * Denies any intent whose `to` (recipient or called contract) is on the list, whose value is paid
 * out of a listed Safe (`via`), or whose effects pay or grant to a listed address (the token
 * recipient inside calldata, a spender, an operator).
 */
export const denyRecipients: RuleEvaluator<DenyRecipientsRule> = (rule, intent) => {
  const index = addressIndex(rule.addresses)
  const details = intent.via ? { recipient: intent.to, via: intent.via } : { recipient: intent.to }
  if (index.has(intent.to.toLowerCase())) {
    return { decision: 'deny', reason: `Recipient ${intent.to} is on the denied recipients list`, details }
  }
  if (intent.via && index.has(intent.via.toLowerCase())) {
    return {
      decision: 'deny',
      reason: `The paying account ${intent.via} is on the denied recipients list`,
      details,
    }
  }
  const listed = effectCounterparties(intent).find((address) => index.has(address.toLowerCase()))
  if (listed) {
    return {
      decision: 'deny',
      reason: `Counterparty ${listed} (paid or granted by this call) is on the denied recipients list`,
      details: { ...details, counterparty: listed },
    }
  }
  return { decision: 'allow', reason: 'Recipient is not on the denied list', details }
}
