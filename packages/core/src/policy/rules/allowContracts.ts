import { isContractCall } from '../isContractCall.js'
import type { AllowContractsRule } from '../ruleSchemas.js'
import type { RuleEvaluator } from './ruleVerdict.js'

type ContractIndex = ReadonlyMap<string, ReadonlySet<string> | 'any'>
const cache = new WeakMap<AllowContractsRule['contracts'], ContractIndex>()

/**
 * Denies a contract call to a contract (or function selector) that is not listed. A payment out of
 * a Safe calls the Safe (`via`), not its recipient.
 */
export const allowContracts: RuleEvaluator<AllowContractsRule> = (rule, intent) => {
  if (!isContractCall(intent)) return undefined
  const contract = intent.via ?? intent.to
  const allowed = contractIndex(rule.contracts).get(contract.toLowerCase())
  const selector =
    intent.data && intent.data.length >= 10 ? intent.data.slice(0, 10).toLowerCase() : undefined
  const details = { contract, selector: selector ?? null }
  if (!allowed) {
    return { decision: 'deny', reason: `Contract ${contract} is not on the allowed contracts list`, details }
  }
  if (allowed !== 'any' && (!selector || !allowed.has(selector))) {
    return {
      decision: 'deny',
      reason: `Function ${selector ?? '(none)'} of ${contract} is not an allowed selector`,
      details: { ...details, allowedSelectors: [...allowed] },
    }
  }
  return { decision: 'allow', reason: 'Contract call is allowed', details }
}

function contractIndex(contracts: AllowContractsRule['contracts']): ContractIndex {
  const index = cache.get(contracts)
  if (index) return index
  const built = new Map<string, Set<string> | 'any'>()
  for (const { address, selectors } of contracts) {
    const key = address.toLowerCase()
    const known = built.get(key)
    // An entry without selectors allows every function, whatever other entries say.
    if (!selectors || known === 'any') built.set(key, 'any')
    else built.set(key, new Set([...(known ?? []), ...selectors]))
  }
  cache.set(contracts, built)
  return built
}
