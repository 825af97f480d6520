import { formatUnits } from 'viem'
import { reputationKey } from '../counterpartyQueries.js'
import type { RequireAgentIdentityRule } from '../ruleSchemas.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/**
 * Denies an x402 payment whose payee is not the `agentWallet` of a registered ERC-8004 agent, or
 * (with `minReputation`) whose agent's feedback from the listed reviewers is too scarce or too low.
 * An identity or reputation that could not be read denies: unknown is never a pass.
 */
export const requireAgentIdentity: RuleEvaluator<RequireAgentIdentityRule> = (rule, intent) => {
  if (intent.kind !== 'x402_payment') return undefined
  const facts = intent.counterparty
  const details: Record<string, unknown> = { payee: intent.to }
  if (!facts?.agentId) {
    return {
      decision: 'deny',
      reason: `Payee ${intent.to} is not a registered ERC-8004 agent: ${facts?.reason ?? 'its identity was not looked up'}`,
      details: { ...details, registry: facts?.registry, claimedAgentId: intent.payeeAgentId },
    }
  }
  details.agentId = facts.agentId
  details.registry = facts.registry
  const wanted = rule.minReputation
  if (!wanted) return { decision: 'allow', reason: `Payee is ERC-8004 agent #${facts.agentId}`, details }
  const key = reputationKey(wanted)
  const read = facts.reputation.find((entry) => reputationKey(entry.query) === key)
  if (!read?.summary) {
    return {
      decision: 'deny',
      reason: `The reputation of agent #${facts.agentId} could not be read: ${read?.error ?? 'not looked up'}`,
      details: { ...details, reviewers: wanted.reviewers },
    }
  }
  const { count, value, decimals } = read.summary
  const score = formatUnits(value, decimals)
  const reputation = {
    count: count.toString(),
    score,
    reviewers: wanted.reviewers,
    minScore: wanted.minScore,
    minCount: wanted.minCount,
  }
  if (count < BigInt(wanted.minCount)) {
    return {
      decision: 'deny',
      reason: `Agent #${facts.agentId} has ${count} review(s) from the listed reviewers; ${wanted.minCount} needed`,
      details: { ...details, reputation },
    }
  }
  if (atScale(value, decimals, wanted.minScore) < 0) {
    return {
      decision: 'deny',
      reason: `Agent #${facts.agentId} scores ${score} from the listed reviewers, below ${wanted.minScore}`,
      details: { ...details, reputation },
    }
  }
  return {
    decision: 'allow',
    reason: `Payee is ERC-8004 agent #${facts.agentId}, scoring ${score}`,
    details: { ...details, reputation },
  }
}

/** Compares a fixed-point value with a decimal string exactly (bigints at a common scale): -1, 0, 1. */
function atScale(value: bigint, decimals: number, minimum: string): number {
  const [whole = '0', fraction = ''] = minimum.split('.')
  const scale = Math.max(decimals, fraction.length)
  const left = value * 10n ** BigInt(scale - decimals)
  const right = BigInt(whole + fraction.padEnd(scale, '0'))
  return left === right ? 0 : left < right ? -1 : 1
}
