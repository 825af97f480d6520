import type { ScreeningQuery } from '../screening/types.js'
import { compileRule } from './compileRule.js'
import type { ScopedRule } from './types.js'

const strictness = { closed: 2, approval: 1, open: 0 } as const

/**
 * What the enabled `screen_counterparties` rules ask of screening, or undefined when none is in scope
 * (no source is asked then): every source any of them names (all when one names none) and the
 * strictest `onOutage` among them.
 * @example screeningQuery([{ scope: 'tenant', rule: { id: 's', type: 'screen_counterparties' } }]) // { onOutage: 'closed' }
 */
export function screeningQuery(rules: readonly ScopedRule[]): ScreeningQuery | undefined {
  let query: { sources: Set<string> | undefined; onOutage: ScreeningQuery['onOutage'] } | undefined
  for (const { rule } of rules) {
    const compiled = compileRule(rule)
    if (!compiled.ok || compiled.rule.enabled === false || compiled.rule.type !== 'screen_counterparties')
      continue
    const { sources, onOutage } = compiled.rule
    if (!query) query = { sources: sources && new Set(sources), onOutage }
    else {
      query.sources = sources && query.sources ? new Set([...query.sources, ...sources]) : undefined
      if (strictness[onOutage] > strictness[query.onOutage]) query.onOutage = onOutage
    }
  }
  if (!query) return undefined
  return { ...(query.sources ? { sources: [...query.sources] } : {}), onOutage: query.onOutage }
}
