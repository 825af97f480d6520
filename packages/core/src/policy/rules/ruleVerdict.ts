import type { PolicyIntent } from '../../intents/types.js'
import type { PolicyContext, RuleOutcome } from '../types.js'

/** One rule's say on one intent; the engine adds the rule's id, type and scope. */
export type RuleVerdict = Pick<RuleOutcome, 'decision' | 'reason' | 'details'>

/** A rule kind's evaluator: `undefined` when the rule does not apply to this intent. */
export type RuleEvaluator<Rule> = (
  rule: Rule,
  intent: PolicyIntent,
  context: PolicyContext,
) => RuleVerdict | undefined
