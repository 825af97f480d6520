import type { AllowChainsRule } from '../ruleSchemas.js'
import type { RuleEvaluator } from './ruleVerdict.js'

const cache = new WeakMap<readonly string[], ReadonlySet<string>>()

/** Denies any intent on a chain that is not listed (chain names compare case-insensitively). */
export const allowChains: RuleEvaluator<AllowChainsRule> = (rule, intent) => {
  let chains = cache.get(rule.chains)
  if (!chains) {
    chains = new Set(rule.chains.map((chain) => chain.toLowerCase()))
    cache.set(rule.chains, chains)
  }
  const details = { chain: intent.chain, allowedChains: rule.chains }
  if (!chains.has(intent.chain.toLowerCase())) {
    return { decision: 'deny', reason: `Chain "${intent.chain}" is not allowed`, details }
  }
  return { decision: 'allow', reason: 'Chain is allowed', details }
}
