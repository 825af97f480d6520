import { parseDuration } from '../schemas/parseDuration.js'
import { compileRule } from './compileRule.js'
import type { ScopedRule } from './types.js'

/**
 * The longest spend_limit / rate_limit window among the rules, in ms (0 when none).
 * @example lookbackMs([{ scope: 'tenant', rule: { id: 'a', type: 'spend_limit', asset: 'native', max: '1', window: '24h' } }]) // 86_400_000
 */
export function lookbackMs(rules: readonly ScopedRule[]): number {
  let longest = 0
  for (const { rule } of rules) {
    const compiled = compileRule(rule)
    if (!compiled.ok || compiled.rule.enabled === false) continue
    if (compiled.rule.type === 'spend_limit' || compiled.rule.type === 'rate_limit') {
      longest = Math.max(longest, parseDuration(compiled.rule.window))
    }
  }
  return longest
}
