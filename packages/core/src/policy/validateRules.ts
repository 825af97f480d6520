import { ValidationError } from '../errors/errors.js'
import { compileRule, primeCompiledRule, type RuleIssue } from './compileRule.js'
import type { RulesEngineRule } from './ruleSchemas.js'
import type { PolicyRule, RuleScope } from './types.js'

/** More rules than this in one scope is a mistake or an attack, not a policy. */
export const maxRulesPerScope = 500

/**
 * Kinds an agent key's rules cannot hold, with why: `sponsor_gas` is read for the tenant's and the
 * wallet's rules only (`sponsorshipOf`); accepted on a key, it would do nothing.
 */
const notForAgents: Readonly<Partial<Record<string, string>>> = {
  sponsor_gas: "sponsors a smart wallet's gas from the tenant's or the wallet's rules, not an agent key's",
}

/**
 * Parses a rule set with the rules engine's schemas, assigns missing ids, rejects bad rules — and
 * rules of a kind the `scope` cannot hold.
 * @example validateRules([{ type: 'max_per_tx', asset: 'native', max: '0.5' }]) // [{ id: '…', type: 'max_per_tx', … }]
 */
export function validateRules(rules: readonly unknown[], scope?: RuleScope): PolicyRule[] {
  if (!Array.isArray(rules)) {
    throw new ValidationError('Rules must be an array', {
      details: { issues: [{ path: [], message: 'Expected an array' }] },
    })
  }
  const issues: RuleIssue[] = []
  if (rules.length > maxRulesPerScope) issues.push({ path: [], message: `At most ${maxRulesPerScope} rules` })
  const seen = new Set<string>()
  const valid: PolicyRule[] = []
  rules.forEach((input, index) => {
    const compiled = compileRule(input, { byContentOnly: true })
    if (!compiled.ok) {
      for (const issue of compiled.issues)
        issues.push({ path: [index, ...issue.path], message: issue.message })
      return
    }
    const refused = scope === 'agent' ? notForAgents[compiled.rule.type] : undefined
    if (refused) issues.push({ path: [index, 'type'], message: `${compiled.rule.type} ${refused}` })
    const rule: RulesEngineRule = { ...compiled.rule, id: compiled.rule.id ?? globalThis.crypto.randomUUID() }
    if (seen.has(rule.id!)) issues.push({ path: [index, 'id'], message: `Duplicate rule id "${rule.id}"` })
    seen.add(rule.id!)
    primeCompiledRule(rule)
    valid.push(rule as PolicyRule)
  })
  if (issues.length > 0) {
    throw new ValidationError(`Invalid policy rules: ${describe(issues[0]!)}`, { details: { issues } })
  }
  return valid
}

function describe(issue: RuleIssue): string {
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message
}
