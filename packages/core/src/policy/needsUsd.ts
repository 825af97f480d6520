import { compileRule } from './compileRule.js'
import { usdAsset } from './ruleSchemas.js'
import type { ScopedRule } from './types.js'

/**
 * True when an enabled rule measures in US dollars (`asset: "usd"`): only then does core read price
 * feeds before evaluating, so rules without one cost no extra RPC.
 * @example needsUsd([{ scope: 'wallet', rule: { id: 'a', type: 'max_per_tx', asset: 'usd', max: '100' } }]) // true
 */
export function needsUsd(rules: readonly ScopedRule[]): boolean {
  return rules.some(({ rule }) => {
    const compiled = compileRule(rule)
    if (!compiled.ok || compiled.rule.enabled === false) return false
    return 'asset' in compiled.rule && compiled.rule.asset === usdAsset
  })
}
