import { effectCounterparties } from '../effectCounterparties.js'
import type { AllowRecipientsRule } from '../ruleSchemas.js'
import { addressIndex } from './addressIndex.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/**
 * Denies value sent or granted to anyone not on the list: the recipient of a transfer, an x402
 * payment (its payee) or a payment out of a Safe (`via`); and, for any intent, every counterparty of
 * its effects — the token recipient inside calldata, the spender or operator of a grant (not a
 * venue). A core-built swap pays its venue's pools, which `allow_contracts` judges.
 */
export const allowRecipients: RuleEvaluator<AllowRecipientsRule> = (rule, intent, context) => {
  const paysTo = intent.kind === 'transfer' || intent.kind === 'x402_payment' || intent.via !== undefined
  const counterparties = intent.kind === 'swap' ? [] : effectCounterparties(intent, context.venues)
  const checked = paysTo ? [intent.to, ...counterparties] : counterparties
  if (checked.length === 0) return undefined
  const index = addressIndex(rule.addresses)
  const details = { recipient: intent.to, listSize: rule.addresses.length }
  const outsider = checked.find((address) => !index.has(address.toLowerCase()))
  if (outsider) {
    const inside = outsider.toLowerCase() !== intent.to.toLowerCase()
    return {
      decision: 'deny',
      reason: inside
        ? `Counterparty ${outsider} (paid or granted by this call) is not on the allowed recipients list`
        : `Recipient ${intent.to} is not on the allowed recipients list`,
      details: inside ? { ...details, counterparty: outsider } : details,
    }
  }
  return { decision: 'allow', reason: 'Recipient is on the allowed list', details }
}
