import type { PolicyIntent } from '../intents/types.js'
import type { CounterpartyRole } from '../screening/types.js'
import { effectsOf } from './effectsOf.js'
import { isOutflow } from './outflowsOf.js'

/**
 * Every counterparty an intent names, with why: `to` (the recipient of a transfer, the payee of an
 * x402 payment, else the contract called), the Safe it pays out of (`via`), and each counterparty of
 * its known effects — the recipient of every `out`, the spender or operator of every grant (a venue's
 * router aside). Judged by effects, not fields: `transfer(attacker, …)` to a token names the attacker.
 * @example counterpartiesOf(intent, context.venues) // [{ address: '0xUSDC…', roles: ['contract'] }, { address: '0xAtt…', roles: ['recipient'] }]
 */
export function counterpartiesOf(
  intent: PolicyIntent,
  venues: readonly string[] = [],
): { address: string; roles: CounterpartyRole[] }[] {
  const found = new Map<string, { address: string; roles: CounterpartyRole[] }>()
  const add = (address: string, role: CounterpartyRole) => {
    const key = address.toLowerCase()
    const entry = found.get(key) ?? { address, roles: [] }
    if (!entry.roles.includes(role)) entry.roles.push(role)
    found.set(key, entry)
  }
  // An x402 payment's outflow goes to its payee: one role, not a second "recipient".
  const paid: CounterpartyRole = intent.kind === 'x402_payment' ? 'payee' : 'recipient'
  // Out of a Safe (`via`), `to` is whom the Safe pays or grants to, not the contract called.
  add(
    intent.to,
    intent.kind === 'x402_payment' || intent.kind === 'transfer' || intent.via ? paid : 'contract',
  )
  if (intent.via) add(intent.via, 'safe')
  const judged = effectsOf(intent)
  if (judged.known)
    for (const effect of judged.effects)
      if (isOutflow(effect, venues)) add(effect.counterparty, effect.kind === 'grant' ? 'spender' : paid)
  return [...found.values()]
}
