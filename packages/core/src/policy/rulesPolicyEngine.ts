import type { PolicyIntent } from '../intents/types.js'
import { compileRule } from './compileRule.js'
import { counterpartyQueries } from './counterpartyQueries.js'
import { lookbackMs } from './lookbackMs.js'
import { needsUsd } from './needsUsd.js'
import type { RuleKind, RulesEngineRule } from './ruleSchemas.js'
import { allowChains } from './rules/allowChains.js'
import { allowContracts } from './rules/allowContracts.js'
import { allowRecipients } from './rules/allowRecipients.js'
import { denyRecipients } from './rules/denyRecipients.js'
import { maxPerTx } from './rules/maxPerTx.js'
import { rateLimit } from './rules/rateLimit.js'
import { requireAgentIdentity } from './rules/requireAgentIdentity.js'
import { requireApproval } from './rules/requireApproval.js'
import type { RuleEvaluator, RuleVerdict } from './rules/ruleVerdict.js'
import { screenCounterparties } from './rules/screenCounterparties.js'
import { spendLimit } from './rules/spendLimit.js'
import { sponsorGas } from './rules/sponsorGas.js'
import { timeWindow } from './rules/timeWindow.js'
import { unknownEffects } from './rules/unknownEffects.js'
import { screeningQuery } from './screeningQuery.js'
import type { PolicyContext, PolicyDecision, PolicyEngine, RuleOutcome } from './types.js'
import { validateRules } from './validateRules.js'

export type RulesPolicyEngineOptions = {
  /** Reported as `engine.name` (default "rules"). */
  name?: string | undefined
}

const evaluators: { [K in RuleKind]: RuleEvaluator<Extract<RulesEngineRule, { type: K }>> } = {
  max_per_tx: maxPerTx,
  spend_limit: spendLimit,
  allow_recipients: allowRecipients,
  deny_recipients: denyRecipients,
  allow_contracts: allowContracts,
  allow_chains: allowChains,
  require_approval: requireApproval,
  rate_limit: rateLimit,
  time_window: timeWindow,
  require_agent_identity: requireAgentIdentity,
  unknown_effects: unknownEffects,
  sponsor_gas: sponsorGas,
  screen_counterparties: screenCounterparties,
}

/**
 * The default PolicyEngine: the rule kinds of DESIGN §5. Any deny wins, then any approval, else allow.
 * @example const decision = rulesPolicyEngine().evaluate(intent, { now, rules, recent, isNewRecipient })
 */
export function rulesPolicyEngine(options: RulesPolicyEngineOptions = {}): PolicyEngine {
  return {
    name: options.name ?? 'rules',
    validateRules,
    lookbackMs,
    needsUsd,
    counterpartyQueries,
    screeningQuery,
    evaluate,
  }
}

function evaluate(intent: PolicyIntent, context: PolicyContext): PolicyDecision {
  const outcomes: RuleOutcome[] = []
  let denied: RuleOutcome | undefined
  let paused: RuleOutcome | undefined
  // An agent's rules count the spends of every wallet its key holds, not only this one's.
  const agentContext = context.agentRecent ? { ...context, recent: context.agentRecent } : context
  for (const { scope, rule } of context.rules) {
    const verdict = judge(rule, intent, scope === 'agent' ? agentContext : context)
    if (!verdict) continue
    const outcome: RuleOutcome = { ruleId: rule.id, type: rule.type, scope, ...verdict }
    outcomes.push(outcome)
    if (outcome.decision === 'deny') denied ??= outcome
    else if (outcome.decision === 'require_approval') paused ??= outcome
  }
  const decider = denied ?? paused
  if (decider) {
    return {
      decision: decider.decision,
      ruleId: decider.ruleId,
      ruleType: decider.type,
      reason: decider.reason,
      details: decider.details,
      outcomes,
    }
  }
  const reason =
    outcomes.length === 0 ? 'No rule applies' : `Allowed by ${outcomes.length} applicable rule(s)`
  return { decision: 'allow', reason, outcomes }
}

function judge(rule: unknown, intent: PolicyIntent, context: PolicyContext): RuleVerdict | undefined {
  const compiled = compileRule(rule)
  // A stored rule the engine cannot read fails closed: silently skipping it would loosen policy.
  if (!compiled.ok) {
    return {
      decision: 'deny',
      reason: 'Rule is invalid and cannot be enforced',
      details: { issues: compiled.issues },
    }
  }
  if (compiled.rule.enabled === false) return undefined
  const evaluator = evaluators[compiled.rule.type] as RuleEvaluator<RulesEngineRule>
  return evaluator(compiled.rule, intent, context)
}
