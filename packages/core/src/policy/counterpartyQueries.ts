import type { ReputationQuery } from '../intents/types.js'
import { compileRule } from './compileRule.js'
import type { ScopedRule } from './types.js'

/**
 * The reputation reads of the enabled `require_agent_identity` rules (an empty list when they only
 * ask for an identity), or undefined when no such rule is in scope: no registry read then.
 * @example counterpartyQueries([{ scope: 'wallet', rule: { id: 'a', type: 'require_agent_identity' } }]) // []
 */
export function counterpartyQueries(rules: readonly ScopedRule[]): ReputationQuery[] | undefined {
  let queries: ReputationQuery[] | undefined
  for (const { rule } of rules) {
    const compiled = compileRule(rule)
    if (!compiled.ok || compiled.rule.enabled === false || compiled.rule.type !== 'require_agent_identity')
      continue
    queries ??= []
    const wanted = compiled.rule.minReputation
    if (wanted) queries.push({ reviewers: wanted.reviewers, tag1: wanted.tag1, tag2: wanted.tag2 })
  }
  return queries
}

/**
 * The key a query's answer is found by.
 * @example reputationKey({ reviewers: ['0xA…'], tag1: '', tag2: '' })
 */
export function reputationKey(query: ReputationQuery): string {
  return JSON.stringify([query.reviewers.map((reviewer) => reviewer.toLowerCase()), query.tag1, query.tag2])
}
