import { parseDuration } from '../schemas/parseDuration.js'
import { compileRule } from './compileRule.js'
import { limitToBaseUnits } from './limitToBaseUnits.js'
import type { SponsorGasRule } from './ruleSchemas.js'

export type SponsorshipDecision =
  | { sponsored: true; ruleIds: string[] }
  | {
      sponsored: false
      /** No enabled `sponsor_gas` rule; a stored one the engine cannot read; or a cap would be passed. */
      reason: 'no_rule' | 'invalid_rule' | 'cap_reached'
      details?: { ruleId?: string | undefined; max: string; spent: string; maxCost: string; window: string }
    }

/**
 * Whether the tenant's paymaster pays for a user operation: every enabled `sponsor_gas` rule of the
 * wallet must leave room for the op's worst-case gas cost (`maxCost`, wei: its gas limits × max fee)
 * over what was sponsored within its window, counted over the wallet or the tenant by `spentSince`.
 * Not sponsored means the wallet pays its own gas; the send itself is not refused.
 * @example const decision = await sponsorshipOf({ rules, now, maxCost, spentSince })
 */
export async function sponsorshipOf({
  rules,
  now,
  maxCost,
  spentSince,
}: {
  rules: readonly unknown[]
  now: Date
  maxCost: bigint
  spentSince: (since: Date, over: SponsorGasRule['over']) => Promise<bigint>
}): Promise<SponsorshipDecision> {
  const sponsoring: SponsorGasRule[] = []
  for (const stored of rules) {
    if ((stored as { type?: unknown } | null)?.type !== 'sponsor_gas') continue
    const compiled = compileRule(stored)
    // A rule that cannot be read fails closed: the tenant's deposit is not spent on a guess.
    if (!compiled.ok || compiled.rule.type !== 'sponsor_gas')
      return { sponsored: false, reason: 'invalid_rule' }
    if (compiled.rule.enabled !== false) sponsoring.push(compiled.rule)
  }
  if (sponsoring.length === 0) return { sponsored: false, reason: 'no_rule' }
  for (const rule of sponsoring) {
    const max = limitToBaseUnits(rule.max, 18)
    const spent = await spentSince(new Date(now.getTime() - parseDuration(rule.window)), rule.over)
    if (spent + maxCost > max) {
      const details = {
        ruleId: rule.id,
        max: max.toString(),
        spent: spent.toString(),
        maxCost: maxCost.toString(),
        window: rule.window,
      }
      return { sponsored: false, reason: 'cap_reached', details }
    }
  }
  return { sponsored: true, ruleIds: sponsoring.map((rule) => rule.id ?? rule.type) }
}
