import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { PolicyIntent, UsdValuation } from '../intents/types.js'
import { sampleIntent } from '../testing/policyEngineConformance.js'
import { rulesPolicyEngine } from './rulesPolicyEngine.js'
import type { PolicyContext, ScopedRule, SpendEntry } from './types.js'
import { formatUsd, parseUsd, usdValueOf } from './usdValueOf.js'

const engine = rulesPolicyEngine()
const ether = 10n ** 18n
const alice: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const dai: Address = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'
const now = new Date('2025-01-06T12:00:00.000Z')
const ethPrice = {
  price: '3000',
  pair: 'ETH/USD',
  feed: '0x46eA0dA1c8f2e3E87C06a661D318253efE068dDD',
  roundId: '1',
  updatedAt: '2025-01-06T11:59:00.000Z',
} as const

const usd = (dollars: string): UsdValuation => ({ value: parseUsd(dollars) })
/** The suite's sample intent, 0.1 ETH, at 3000 USD: worth 300 USD. */
const ethIntent = (overrides: Partial<PolicyIntent> = {}): PolicyIntent => ({
  ...sampleIntent,
  usd: { value: parseUsd('300'), price: ethPrice },
  ...overrides,
})
const daiIntent = (dollars: string): PolicyIntent =>
  ethIntent({
    asset: { address: dai, symbol: 'DAI', decimals: 18 },
    amount: parseUsd(dollars),
    usd: usd(dollars),
  })
const spentUsd = (dollars: string, agoMs: number, asset: SpendEntry['asset'] = dai): SpendEntry => ({
  asset,
  amount: 1n,
  at: now.getTime() - agoMs,
  to: alice,
  usd: usd(dollars),
})
const stale: UsdValuation = {
  error: {
    code: 'stale_price',
    asset: 'native',
    symbol: 'ETH',
    reason: 'the ETH/USD answer was written 7200 s ago, more than the 3900 s allowed',
    pair: 'ETH/USD',
    feed: ethPrice.feed,
    updatedAt: '2025-01-06T10:00:00.000Z',
    maxAgeSeconds: 3900,
  },
}

function evaluate(rules: unknown[], subject: PolicyIntent, context: Partial<PolicyContext> = {}) {
  const scoped: ScopedRule[] = engine.validateRules(rules).map((rule) => ({ scope: 'tenant', rule }))
  return engine.evaluate(subject, { now, rules: scoped, recent: [], isNewRecipient: false, ...context })
}

describe('usdValueOf', () => {
  it('values exactly with integers and rounds a remainder up, never down', () => {
    expect(formatUsd(usdValueOf(ether / 10n, 18, 3000_00000000n, 8))).toBe('300')
    expect(formatUsd(usdValueOf(2_500_000n, 6, 1_00000000n, 8))).toBe('2.5')
    // 1 wei at 1e-8 USD is 1e-26 USD: below one unit, so it counts as one unit, not zero.
    expect(usdValueOf(1n, 18, 1n, 8)).toBe(1n)
    expect(usdValueOf(0n, 18, 3000_00000000n, 8)).toBe(0n)
  })
})

describe('rules in US dollars', () => {
  it('accept asset "usd" in any case for max_per_tx, spend_limit and require_approval above', () => {
    const rules = engine.validateRules([
      { type: 'max_per_tx', asset: 'USD', max: '100' },
      { type: 'spend_limit', asset: 'usd', max: '100', window: '24h' },
      { type: 'require_approval', asset: 'Usd', above: '50' },
    ])
    expect(rules.map((rule) => rule.asset)).toEqual(['usd', 'usd', 'usd'])
    expect(() => engine.validateRules([{ type: 'require_approval', asset: 'usd', always: true }])).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    )
  })

  it('need USD values only when an enabled rule names usd', () => {
    const scoped = (rules: unknown[]): ScopedRule[] =>
      engine.validateRules(rules).map((rule) => ({ scope: 'wallet', rule }))
    expect(engine.needsUsd!(scoped([{ type: 'max_per_tx', asset: 'native', max: '1' }]))).toBe(false)
    expect(engine.needsUsd!(scoped([{ type: 'max_per_tx', asset: 'usd', max: '1', enabled: false }]))).toBe(
      false,
    )
    expect(engine.needsUsd!(scoped([{ type: 'spend_limit', asset: 'usd', max: '1', window: '1h' }]))).toBe(
      true,
    )
  })

  it('max_per_tx caps any asset by its USD value, inclusive, and shows the valuation', () => {
    const rule = { id: 'usd-cap', type: 'max_per_tx', asset: 'usd', max: '300' }
    expect(evaluate([rule], ethIntent()).decision).toBe('allow')
    const over = ethIntent({ usd: { value: parseUsd('300') + 1n, price: ethPrice } })
    expect(evaluate([rule], over)).toMatchObject({
      decision: 'deny',
      ruleId: 'usd-cap',
      details: {
        asset: 'usd',
        symbol: 'USD',
        limit: '300',
        requested: '300.000000000000000001',
        usd: {
          value: '300.000000000000000001',
          asset: 'native',
          symbol: 'ETH',
          amount: '0.1',
          price: '3000',
          pair: 'ETH/USD',
          feed: ethPrice.feed,
          roundId: '1',
        },
      },
    })
    expect(evaluate([rule], daiIntent('301')).decision).toBe('deny')
  })

  it('spend_limit sums the stored USD value of every asset in the window', () => {
    const rule = { id: 'daily-usd', type: 'spend_limit', asset: 'usd', max: '1000', window: '24h' }
    const recent = [spentUsd('400', 60_000), spentUsd('300', 120_000, 'native'), spentUsd('500', 86_400_000)]
    expect(evaluate([rule], ethIntent(), { recent }).decision).toBe('allow')
    expect(evaluate([rule], daiIntent('300.01'), { recent })).toMatchObject({
      decision: 'deny',
      details: {
        asset: 'usd',
        window: '24h',
        limit: '1000',
        spent: '700',
        requested: '300.01',
        remaining: '300',
        usd: { value: '300.01', symbol: 'DAI' },
      },
    })
  })

  it('spend_limit denies when an earlier spend in the window has no USD value', () => {
    const rule = { type: 'spend_limit', asset: 'usd', max: '1000', window: '24h' }
    const unvalued = { ...spentUsd('1', 60_000), usd: undefined }
    expect(evaluate([rule], ethIntent(), { recent: [unvalued] })).toMatchObject({
      decision: 'deny',
      details: { asset: 'usd', usd: { asset: dai, error: 'not_valued' } },
    })
    const staleEntry = { ...spentUsd('1', 60_000, 'native'), usd: stale }
    expect(evaluate([rule], daiIntent('1'), { recent: [staleEntry] })).toMatchObject({
      decision: 'deny',
      details: { usd: { asset: 'native', symbol: 'ETH', error: 'stale_price', pair: 'ETH/USD' } },
    })
  })

  it('require_approval above pauses strictly above a dollar threshold, for any asset', () => {
    const rule = { id: 'usd-approval', type: 'require_approval', asset: 'usd', above: '300' }
    expect(evaluate([rule], ethIntent()).decision).toBe('allow')
    expect(evaluate([rule], daiIntent('300.5'))).toMatchObject({
      decision: 'require_approval',
      details: { threshold: '300', requested: '300.5', triggers: ['above'], usd: { symbol: 'DAI' } },
    })
  })

  it('deny, never pause or pass, an intent whose price is stale or that was not valued', () => {
    for (const rule of [
      { type: 'max_per_tx', asset: 'usd', max: '1000000' },
      { type: 'spend_limit', asset: 'usd', max: '1000000', window: '1h' },
      { type: 'require_approval', asset: 'usd', above: '1000000' },
    ]) {
      expect(evaluate([rule], ethIntent({ usd: stale }))).toMatchObject({
        decision: 'deny',
        details: {
          asset: 'usd',
          usd: {
            asset: 'native',
            symbol: 'ETH',
            amount: '0.1',
            error: 'stale_price',
            updatedAt: '2025-01-06T10:00:00.000Z',
            maxAgeSeconds: 3900,
          },
        },
      })
      expect(evaluate([rule], ethIntent({ usd: undefined }))).toMatchObject({
        decision: 'deny',
        details: { usd: { error: 'not_valued' } },
      })
    }
  })
})
