import { parseDuration } from '../../schemas/parseDuration.js'
import type { RateLimitRule } from '../ruleSchemas.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/** Denies when this intent would make more than `max` intents (any asset) in the rolling window. */
export const rateLimit: RuleEvaluator<RateLimitRule> = (rule, _intent, context) => {
  const since = context.now.getTime() - parseDuration(rule.window)
  let count = 0
  for (const entry of context.recent) if (entry.at > since) count++
  const details = { limit: rule.max, count, window: rule.window }
  if (count + 1 > rule.max) {
    return {
      decision: 'deny',
      reason: `Rate limit of ${rule.max} transactions per ${rule.window} reached (${count} already)`,
      details,
    }
  }
  return { decision: 'allow', reason: 'Within the rate limit', details }
}
