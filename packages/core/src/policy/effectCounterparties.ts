import type { Address } from 'viem'
import type { PolicyIntent } from '../intents/types.js'
import { effectsOf } from './effectsOf.js'
import { isOutflow } from './outflowsOf.js'

/**
 * Who the intent pays or empowers, beyond `to`: the counterparty of each `out` effect (the token
 * recipient inside calldata) and each grant (the spender, the operator), except grants to `venues`.
 * Empty when the effects are not known.
 * @example effectCounterparties(intent, context.venues) // ['0xAtt…']
 */
export function effectCounterparties(intent: PolicyIntent, venues: readonly string[] = []): Address[] {
  const judged = effectsOf(intent)
  if (!judged.known) return []
  const seen = new Set<string>()
  const found: Address[] = []
  for (const effect of judged.effects) {
    if (!isOutflow(effect, venues)) continue
    const key = effect.counterparty.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    found.push(effect.counterparty)
  }
  return found
}
