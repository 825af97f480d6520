import { describe, expect, it } from 'vitest'
import type { AgentWalletContext } from '../context.js'
import type { PolicyIntent } from '../intents/types.js'
import { screeningCounts } from '../screening/screeningCounts.js'
import type { ScreeningFacts, ScreeningSource } from '../screening/types.js'
import { sampleIntent } from '../testing/policyEngineConformance.js'
import { rulesPolicyEngine } from './rulesPolicyEngine.js'
import { screenIntent } from './screenIntent.js'
import { screeningQuery } from './screeningQuery.js'
import type { PolicyContext, ScopedRule } from './types.js'

const engine = rulesPolicyEngine()
const rule = (fields: Record<string, unknown> = {}): ScopedRule => ({
  scope: 'tenant',
  rule: { id: 'screen', type: 'screen_counterparties', ...fields },
})
const context = (rules: ScopedRule[]): PolicyContext => ({
  now: new Date(),
  rules,
  recent: [],
  isNewRecipient: false,
})
const judge = (facts: ScreeningFacts | undefined, rules = [rule()]) => {
  const intent: PolicyIntent = { ...sampleIntent, ...(facts ? { screening: facts } : {}) }
  return engine.evaluate(intent, context(rules))
}
const to = sampleIntent.to
const clear = { verdict: 'clear' as const, source: 'lists', reasons: [] }
const listed = {
  verdict: 'block' as const,
  source: 'lists',
  reasons: ['on list "drainers": drained a wallet'],
  lists: [{ listId: 'scl_1', listName: 'drainers', shared: false, reason: 'drained a wallet' }],
}

describe('screen_counterparties', () => {
  it('denies a blocked counterparty, naming its role, the source, the list and the reason', () => {
    const decision = judge({
      counterparties: [{ address: to, roles: ['recipient'], results: [listed] }],
      outages: [],
    })
    expect(decision).toMatchObject({
      decision: 'deny',
      ruleId: 'screen',
      ruleType: 'screen_counterparties',
      reason: `Recipient ${to} is blocked by screening source "lists": on list "drainers": drained a wallet`,
      details: { subject: to, roles: ['recipient'], verdict: 'block', lists: listed.lists },
    })
  })

  it('pauses a warned counterparty (onWarn), allows a clear one and lists every verdict', () => {
    const warned = { verdict: 'warn' as const, source: 'blockaid', reasons: ['Warning: new contract'] }
    const facts: ScreeningFacts = {
      counterparties: [{ address: to, roles: ['spender'], results: [clear, warned] }],
      outages: [],
    }
    expect(judge(facts)).toMatchObject({ decision: 'require_approval', details: { source: 'blockaid' } })
    expect(judge(facts, [rule({ onWarn: 'deny' })]).decision).toBe('deny')
    expect(judge(facts, [rule({ onWarn: 'allow' })]).decision).toBe('allow')
    // A rule that names only the lists does not hear the vendor's warning.
    const listsOnly = judge(facts, [rule({ sources: ['lists'] })])
    expect(listsOnly.decision).toBe('allow')
    expect(listsOnly.outcomes[0]?.details).toEqual({
      verdicts: [{ subject: to, roles: ['spender'], verdict: 'clear', source: 'lists', reasons: [] }],
    })
  })

  it('judges the whole call: a vendor block of the call denies', () => {
    const malicious = { verdict: 'block' as const, source: 'blockaid', reasons: ['Malicious: drainer'] }
    const decision = judge({
      counterparties: [{ address: to, roles: ['contract'], results: [clear] }],
      call: { to, results: [malicious] },
      outages: [],
    })
    expect(decision).toMatchObject({ decision: 'deny', details: { roles: ['call'], source: 'blockaid' } })
  })

  it('answers an outage by onOutage, and a block still denies beside one', () => {
    const facts: ScreeningFacts = {
      counterparties: [{ address: to, roles: ['recipient'], results: [clear] }],
      outages: [{ source: 'blockaid', subject: to, reason: 'Screening source "blockaid" is unavailable' }],
    }
    expect(judge(facts).decision).toBe('deny')
    expect(judge(facts, [rule({ onOutage: 'approval' })]).decision).toBe('require_approval')
    expect(judge(facts, [rule({ onOutage: 'open' })])).toMatchObject({ decision: 'allow' })
    expect(
      judge(facts, [rule({ onOutage: 'open', sources: ['lists'] })]).outcomes[0]?.details,
    ).not.toHaveProperty('outages')
    const blockedToo = {
      ...facts,
      counterparties: [{ address: to, roles: ['recipient' as const], results: [listed] }],
    }
    expect(judge(blockedToo, [rule({ onOutage: 'open' })]).decision).toBe('deny')
  })

  it('denies an intent that was never screened: unknown is never clear', () => {
    expect(judge(undefined)).toMatchObject({
      decision: 'deny',
      reason: 'The counterparties were not screened',
    })
  })

  it('validates its fields and tells core what to ask (the strictest outage mode, every source named)', () => {
    expect(() => engine.validateRules([{ type: 'screen_counterparties', onOutage: 'fail' }])).toThrow()
    expect(() => engine.validateRules([{ type: 'screen_counterparties', source: 'lists' }])).toThrow()
    expect(screeningQuery([])).toBeUndefined()
    expect(screeningQuery([rule()])).toEqual({ onOutage: 'closed' })
    expect(
      screeningQuery([
        rule({ sources: ['lists'], onOutage: 'open' }),
        rule({ sources: ['blockaid'], onOutage: 'approval' }),
      ]),
    ).toEqual({ sources: ['lists', 'blockaid'], onOutage: 'approval' })
    expect(screeningQuery([rule({ sources: ['lists'] }), rule()])).toEqual({ onOutage: 'closed' })
    expect(screeningQuery([rule({ enabled: false })])).toBeUndefined()
  })
})

describe('screenIntent', () => {
  const ctxWith = (sources: ScreeningSource[]) =>
    ({
      chains: { list: () => [{ name: 'devnet', chainId: 31337, family: 'evm' }], get: () => undefined },
      screening: { sources, counts: screeningCounts(sources.map((source) => source.name)) },
    }) as unknown as Pick<AgentWalletContext, 'chains' | 'screening'>

  it('asks every counterparty and the call; an answer that is no verdict is an outage, never clear', async () => {
    const asked: string[] = []
    const vendor: ScreeningSource = {
      name: 'vendor',
      screenAddress: async ({ address }) => {
        asked.push(address)
        return { verdict: 'fine' as 'clear', source: 'vendor', reasons: [] }
      },
      screenCall: async () => ({ verdict: 'warn', source: 'vendor', reasons: ['odd call'] }),
    }
    const ctx = ctxWith([vendor])
    const intent: PolicyIntent = { ...sampleIntent, kind: 'contract_call', data: '0x12345678' }
    const facts = await screenIntent(ctx, 't1', intent, { onOutage: 'closed' })
    expect(asked).toEqual([sampleIntent.to])
    expect(facts.counterparties).toEqual([{ address: sampleIntent.to, roles: ['contract'], results: [] }])
    expect(facts.outages).toEqual([
      { source: 'vendor', subject: sampleIntent.to, reason: 'Screening source "vendor" is unavailable' },
    ])
    expect(facts.call).toEqual({
      to: sampleIntent.to,
      results: [{ verdict: 'warn', source: 'vendor', reasons: ['odd call'] }],
    })
    expect(ctx.screening.counts.total('vendor', 'outage')).toBe(1)
    expect(ctx.screening.counts.total('vendor', 'warn')).toBe(1)
  })
})
