import type { RuleFigures } from './ruleFigures.js'

/**
 * The details every amount rule adds from its figures: the effects it counted, an unlimited grant
 * among them, effects that were not known, and the USD valuation.
 * @example const details = { asset: rule.asset, ...figureDetails(figures) }
 */
export function figureDetails(figures: RuleFigures): Record<string, unknown> {
  return {
    counted: figures.counted,
    ...(figures.unlimited ? { unlimited: figures.unlimited } : {}),
    ...(figures.effects ? { effects: figures.effects } : {}),
    ...(figures.usd ? { usd: figures.usd } : {}),
  }
}
