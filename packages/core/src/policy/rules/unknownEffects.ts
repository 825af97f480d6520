import { effectsOf } from '../effectsOf.js'
import type { UnknownEffectsRule } from '../ruleSchemas.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/**
 * Denies or pauses (`action`) an intent whose effects are not known: not simulable, reverting, or
 * not given. Allows one whose effects are known (the amount and recipient rules judge those).
 */
export const unknownEffects: RuleEvaluator<UnknownEffectsRule> = (rule, intent) => {
  const judged = effectsOf(intent)
  if (judged.known) {
    const source = judged.assumed
      ? 'fields'
      : intent.effects?.status === 'known'
        ? intent.effects.source
        : 'fields'
    return {
      decision: 'allow',
      reason: 'The effects of this intent are known',
      details: { effects: 'known', source },
    }
  }
  const details = { effects: judged.status, effectsReason: judged.reason }
  const what =
    judged.status === 'reverted'
      ? `The call would revert (${judged.reason})`
      : `The effects of this call are not known (${judged.reason})`
  if (rule.action === 'deny') return { decision: 'deny', reason: what, details }
  return { decision: 'require_approval', reason: `${what}: a human must approve it`, details }
}
