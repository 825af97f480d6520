/**
 * A plugin PolicyEngine: wraps the rules engine and adds one house rule (no sends on a chain's
 * native coin above 10 without approval, whatever the tenant configured). Runs the port's
 * conformance suite in three lines (see test/examples.test.ts).
 */
import { type PolicyEngine, rulesPolicyEngine } from '@agentwallet/core'
import { parseEther } from 'viem'

export function houseRulesEngine(): PolicyEngine {
  const rules = rulesPolicyEngine()
  return {
    name: 'house-rules',
    validateRules: (input) => rules.validateRules(input),
    lookbackMs: (scoped) => rules.lookbackMs(scoped),
    evaluate(intent, context) {
      const decision = rules.evaluate(intent, context)
      if (
        decision.decision !== 'allow' ||
        intent.asset.address !== 'native' ||
        intent.amount <= parseEther('10')
      ) {
        return decision
      }
      return {
        decision: 'require_approval',
        ruleId: 'house-large-native',
        ruleType: 'house',
        reason: 'Native sends above 10 always need a human',
        details: { limit: '10', requested: intent.amount.toString() },
        outcomes: decision.outcomes,
      }
    },
  }
}
