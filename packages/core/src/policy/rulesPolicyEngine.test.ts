import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { PolicyIntent } from '../intents/types.js'
import { runPolicyEngineConformance } from '../testing/policyEngineConformance.js'
import { defaultTenantRules } from './defaultRules.js'
import { rulesPolicyEngine } from './rulesPolicyEngine.js'
import type { PolicyContext, PolicyRule, ScopedRule, SpendEntry } from './types.js'

const engine = rulesPolicyEngine()
const ether = 10n ** 18n
const alice: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const bob: Address = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const router: Address = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
const usdc: Address = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'
const now = new Date('2025-01-06T12:00:00.000Z') // a Monday

const intent = (overrides: Partial<PolicyIntent> = {}): PolicyIntent => ({
  kind: 'transfer',
  chain: 'devnet',
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  to: alice,
  asset: { address: 'native', symbol: 'ETH', decimals: 18 },
  amount: ether / 10n,
  ...overrides,
})
const usdcIntent = (amount: bigint, overrides: Partial<PolicyIntent> = {}) =>
  intent({ asset: { address: usdc, symbol: 'USDC', decimals: 6 }, amount, ...overrides })

function evaluate(rules: unknown[], subject: PolicyIntent, context: Partial<PolicyContext> = {}) {
  const scoped: ScopedRule[] = engine.validateRules(rules).map((rule) => ({ scope: 'tenant', rule }))
  return engine.evaluate(subject, { now, rules: scoped, recent: [], isNewRecipient: false, ...context })
}
const spent = (amount: bigint, agoMs: number, asset: SpendEntry['asset'] = 'native'): SpendEntry => ({
  asset,
  amount,
  at: now.getTime() - agoMs,
  to: bob,
})

function errorOf(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

runPolicyEngineConformance(
  { describe, it, expect },
  {
    create: () => rulesPolicyEngine(),
    samples: {
      deny: { type: 'deny_recipients', addresses: [alice] },
      requireApproval: { type: 'require_approval', always: true },
      allow: { type: 'allow_chains', chains: ['devnet'] },
    },
    usdCap: { type: 'max_per_tx', asset: 'usd', max: '100' },
    tokenCap: (token) => ({ type: 'max_per_tx', asset: token, max: '1' }),
    windowCap: { type: 'spend_limit', asset: 'native', max: '1', window: '24h' },
  },
)

describe('rulesPolicyEngine', () => {
  describe('max_per_tx', () => {
    const rule = { id: 'cap', type: 'max_per_tx', asset: 'native', max: '0.5' }

    it('allows exactly the limit and blocks one wei over, with the numbers', () => {
      expect(evaluate([rule], intent({ amount: ether / 2n })).decision).toBe('allow')
      expect(evaluate([rule], intent({ amount: ether / 2n + 1n }))).toMatchObject({
        decision: 'deny',
        ruleId: 'cap',
        ruleType: 'max_per_tx',
        details: {
          asset: 'native',
          limit: '0.5',
          requested: '0.500000000000000001',
          limitRaw: '500000000000000000',
        },
      })
    })

    it('matches tokens by address (any case) and by symbol (any case), not native', () => {
      const byAddress = { type: 'max_per_tx', asset: usdc.toLowerCase(), max: '100' }
      const bySymbol = { type: 'max_per_tx', asset: 'usdc', max: '100' }
      for (const tokenRule of [byAddress, bySymbol]) {
        expect(evaluate([tokenRule], usdcIntent(100_000_000n)).decision).toBe('allow')
        expect(evaluate([tokenRule], usdcIntent(100_000_001n)).decision).toBe('deny')
        expect(evaluate([tokenRule], intent({ amount: 1000n * ether })).decision).toBe('allow')
      }
    })

    it('rounds a limit finer than the asset down, never up', () => {
      const fine = { type: 'max_per_tx', asset: 'USDC', max: '1.0000009' }
      expect(evaluate([fine], usdcIntent(1_000_000n)).decision).toBe('allow')
      expect(evaluate([fine], usdcIntent(1_000_001n)).decision).toBe('deny')
    })
  })

  describe('spend_limit', () => {
    const rule = { id: 'daily', type: 'spend_limit', asset: 'native', max: '1', window: '24h' }

    it('allows spent + amount exactly at the limit and blocks one wei over', () => {
      const recent = [spent((ether * 8n) / 10n, 60_000)]
      expect(evaluate([rule], intent({ amount: (ether * 2n) / 10n }), { recent }).decision).toBe('allow')
      expect(evaluate([rule], intent({ amount: (ether * 3n) / 10n }), { recent })).toMatchObject({
        decision: 'deny',
        ruleId: 'daily',
        details: {
          limit: '1',
          spent: '0.8',
          requested: '0.3',
          asset: 'native',
          window: '24h',
          remaining: '0.2',
        },
      })
      expect(evaluate([rule], intent({ amount: (ether * 2n) / 10n + 1n }), { recent }).decision).toBe('deny')
    })

    it('ignores spend outside the window and of other assets', () => {
      const recent = [spent(ether, 24 * 3_600_000), spent(ether, 1_000, usdc)]
      expect(evaluate([rule], intent({ amount: ether }), { recent }).decision).toBe('allow')
      expect(
        evaluate([rule], intent({ amount: ether }), { recent: [spent(1n, 24 * 3_600_000 - 1)] }).decision,
      ).toBe('deny')
    })

    it('sums token spend by the intent asset when the rule names a symbol', () => {
      const tokenRule = { type: 'spend_limit', asset: 'USDC', max: '10', window: '1h' }
      const recent = [spent(9_000_000n, 1_000, usdc.toLowerCase() as typeof usdc)]
      expect(evaluate([tokenRule], usdcIntent(1_000_000n), { recent }).decision).toBe('allow')
      expect(evaluate([tokenRule], usdcIntent(1_000_001n), { recent })).toMatchObject({
        decision: 'deny',
        details: { spent: '9', requested: '1.000001', limit: '10' },
      })
    })
  })

  describe('allow_recipients', () => {
    const rule = { type: 'allow_recipients', addresses: [alice] }

    it('allows listed recipients in any case and blocks others', () => {
      expect(evaluate([rule], intent({ to: alice.toLowerCase() as typeof alice })).decision).toBe('allow')
      expect(evaluate([rule], intent({ to: bob }))).toMatchObject({
        decision: 'deny',
        details: { recipient: bob },
      })
    })

    it('applies to token transfers but not to contract calls', () => {
      expect(evaluate([rule], usdcIntent(1n, { to: bob })).decision).toBe('deny')
      expect(evaluate([rule], intent({ kind: 'swap', to: router, data: '0x38ed1739' })).decision).toBe(
        'allow',
      )
    })
  })

  describe('deny_recipients', () => {
    const rule = { type: 'deny_recipients', addresses: [bob.toLowerCase()] }

    it('blocks listed recipients (any case) and contracts, allows others', () => {
      expect(evaluate([rule], intent({ to: bob })).decision).toBe('deny')
      expect(evaluate([rule], intent({ kind: 'contract_call', to: bob, data: '0x12345678' })).decision).toBe(
        'deny',
      )
      expect(evaluate([rule], intent({ to: alice })).decision).toBe('allow')
    })
  })

  describe('allow_contracts', () => {
    const rule = {
      type: 'allow_contracts',
      contracts: [{ address: router, selectors: ['0x38ED1739'] }, { address: usdc }],
    }

    it('allows listed contracts and selectors, blocks others', () => {
      const call = (to: typeof alice, data?: `0x${string}`) => intent({ kind: 'contract_call', to, data })
      expect(evaluate([rule], call(router, '0x38ed1739aabbccdd')).decision).toBe('allow')
      expect(evaluate([rule], call(usdc, '0xa9059cbb')).decision).toBe('allow')
      expect(evaluate([rule], call(router, '0x7ff36ab5'))).toMatchObject({
        decision: 'deny',
        details: { contract: router, selector: '0x7ff36ab5', allowedSelectors: ['0x38ed1739'] },
      })
      expect(evaluate([rule], call(router)).decision).toBe('deny')
      expect(evaluate([rule], call(bob, '0x38ed1739')).decision).toBe('deny')
    })

    it('treats calldata on a native transfer as a contract call, a plain or token transfer as none', () => {
      expect(evaluate([rule], intent({ to: bob, data: '0xdeadbeef' })).decision).toBe('deny')
      expect(evaluate([rule], intent({ to: bob })).decision).toBe('allow')
      expect(evaluate([rule], intent({ to: bob, data: '0x' })).decision).toBe('allow')
      // Core puts the ERC-20 `transfer(bob, amount)` calldata on a token transfer whose `to` is bob.
      const erc20Transfer =
        `0xa9059cbb${bob.slice(2).toLowerCase().padStart(64, '0')}${'1'.padStart(64, '0')}` as const
      expect(evaluate([rule], usdcIntent(1n, { to: bob, data: erc20Transfer })).decision).toBe('allow')
      expect(
        evaluate(
          [{ type: 'allow_recipients', addresses: [alice] }],
          usdcIntent(1n, { to: bob, data: erc20Transfer }),
        ).decision,
      ).toBe('deny')
    })

    it('an empty list blocks every contract call', () => {
      expect(
        evaluate([{ type: 'allow_contracts', contracts: [] }], intent({ kind: 'stake', to: router }))
          .decision,
      ).toBe('deny')
    })
  })

  describe('allow_chains', () => {
    it('allows listed chains and blocks others', () => {
      const rule = { type: 'allow_chains', chains: ['devnet', 'Base'] }
      expect(evaluate([rule], intent()).decision).toBe('allow')
      expect(evaluate([rule], intent({ chain: 'base' })).decision).toBe('allow')
      expect(evaluate([rule], intent({ chain: 'mainnet' }))).toMatchObject({
        decision: 'deny',
        details: { chain: 'mainnet' },
      })
    })
  })

  describe('require_approval', () => {
    it('pauses strictly above the threshold (native by default), not at it', () => {
      const rule = { id: 'big', type: 'require_approval', above: '0.5' }
      expect(evaluate([rule], intent({ amount: ether / 2n })).decision).toBe('allow')
      expect(evaluate([rule], intent({ amount: ether / 2n + 1n }))).toMatchObject({
        decision: 'require_approval',
        ruleId: 'big',
        details: { threshold: '0.5', requested: '0.500000000000000001', triggers: ['above'] },
      })
      expect(evaluate([rule], usdcIntent(10n ** 12n)).decision).toBe('allow')
    })

    it('pauses new recipients only', () => {
      const rule = { type: 'require_approval', newRecipients: true }
      expect(evaluate([rule], intent(), { isNewRecipient: true })).toMatchObject({
        decision: 'require_approval',
        details: { triggers: ['new_recipient'], recipient: alice },
      })
      expect(evaluate([rule], intent(), { isNewRecipient: false }).decision).toBe('allow')
    })

    it('always pauses, optionally only for one asset', () => {
      expect(evaluate([{ type: 'require_approval', always: true }], intent()).decision).toBe(
        'require_approval',
      )
      const usdcOnly = { type: 'require_approval', always: true, asset: 'USDC' }
      expect(evaluate([usdcOnly], usdcIntent(1n)).decision).toBe('require_approval')
      expect(evaluate([usdcOnly], intent()).decision).toBe('allow')
    })

    it('needs a trigger', () => {
      expect(
        errorOf(() => engine.validateRules([{ type: 'require_approval', asset: 'native' }])),
      ).toMatchObject({
        code: 'validation_failed',
      })
    })
  })

  describe('rate_limit', () => {
    const rule = { id: 'rate', type: 'rate_limit', max: 3, window: '1h' }

    it('allows up to max intents in the window (any asset) and blocks the next', () => {
      const two = [spent(1n, 1_000), spent(1n, 2_000, usdc), spent(1n, 3_600_000)]
      expect(evaluate([rule], intent(), { recent: two }).decision).toBe('allow')
      expect(evaluate([rule], intent(), { recent: [...two, spent(1n, 5_000)] })).toMatchObject({
        decision: 'deny',
        ruleId: 'rate',
        details: { limit: 3, count: 3, window: '1h' },
      })
    })
  })

  describe('time_window', () => {
    const office = {
      type: 'time_window',
      days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      from: '09:00',
      to: '17:00',
    }
    const at = (iso: string) => ({ now: new Date(iso) })

    it('allows inside the window (from inclusive, to exclusive) and blocks outside', () => {
      const rule = { ...office, tz: 'UTC' }
      expect(evaluate([rule], intent(), at('2025-01-06T09:00:00Z')).decision).toBe('allow')
      expect(evaluate([rule], intent(), at('2025-01-06T16:59:59Z')).decision).toBe('allow')
      expect(evaluate([rule], intent(), at('2025-01-06T17:00:00Z'))).toMatchObject({
        decision: 'deny',
        details: { localTime: 'mon 17:00', tz: 'UTC' },
      })
      expect(evaluate([rule], intent(), at('2025-01-05T12:00:00Z')).decision).toBe('deny') // Sunday
    })

    it('reads the clock in the rule time zone, across DST', () => {
      const ny = { ...office, tz: 'America/New_York' }
      // 13:30 UTC is 08:30 in New York in winter (UTC-5) and 09:30 in summer (UTC-4).
      expect(evaluate([ny], intent(), at('2025-01-06T13:30:00Z')).decision).toBe('deny')
      expect(evaluate([ny], intent(), at('2025-07-07T13:30:00Z')).decision).toBe('allow')
      // Monday 23:30 UTC is Tuesday 08:30 in Tokyo: a weekday, but before opening.
      const tokyo = { ...office, tz: 'Asia/Tokyo' }
      expect(evaluate([tokyo], intent(), at('2025-01-06T23:30:00Z'))).toMatchObject({
        decision: 'deny',
        details: { localTime: 'tue 08:30' },
      })
      // Friday 23:30 UTC is Saturday in Tokyo.
      expect(
        evaluate([{ ...tokyo, from: '00:00', to: '24:00' }], intent(), at('2025-01-10T23:30:00Z')).decision,
      ).toBe('deny')
    })

    it('handles windows that span midnight by the day they start', () => {
      const night = { type: 'time_window', days: ['fri'], from: '22:00', to: '06:00', tz: 'UTC' }
      expect(evaluate([night], intent(), at('2025-01-10T23:00:00Z')).decision).toBe('allow') // Fri 23:00
      expect(evaluate([night], intent(), at('2025-01-11T05:59:00Z')).decision).toBe('allow') // Sat 05:59
      expect(evaluate([night], intent(), at('2025-01-11T06:00:00Z')).decision).toBe('deny')
      expect(evaluate([night], intent(), at('2025-01-10T05:00:00Z')).decision).toBe('deny') // Fri early = Thu's
    })

    it('rejects unknown time zones and bad clocks', () => {
      for (const bad of [
        { ...office, tz: 'Mars/Olympus' },
        { ...office, from: '9:00' },
        { ...office, to: '25:00' },
        { ...office, to: '09:00' },
        { ...office, days: ['monday'] },
        { ...office, days: ['mon', 'mon'] },
      ]) {
        expect(errorOf(() => engine.validateRules([bad]))).toMatchObject({ code: 'validation_failed' })
      }
    })
  })

  describe('precedence and decisions', () => {
    const deny = { id: 'no-bob', type: 'deny_recipients', addresses: [bob] }
    const pause = { id: 'pause', type: 'require_approval', always: true }
    const cap = { id: 'cap', type: 'max_per_tx', asset: 'native', max: '0.01' }

    it('deny beats require_approval; the first denying rule is named', () => {
      const decision = evaluate([pause, cap, deny], intent({ to: bob }))
      expect(decision).toMatchObject({ decision: 'deny', ruleId: 'cap', ruleType: 'max_per_tx' })
      expect(decision.outcomes.map((outcome) => [outcome.ruleId, outcome.decision])).toEqual([
        ['pause', 'require_approval'],
        ['cap', 'deny'],
        ['no-bob', 'deny'],
      ])
    })

    it('require_approval beats allow; no rules allow', () => {
      expect(evaluate([deny, pause], intent()).decision).toBe('require_approval')
      expect(evaluate([], intent())).toMatchObject({ decision: 'allow', outcomes: [] })
    })

    it('skips disabled rules', () => {
      expect(evaluate([{ ...pause, enabled: false }], intent()).decision).toBe('allow')
    })

    it('fails closed on a stored rule it cannot read', () => {
      const broken = { id: 'broken', type: 'max_per_tx', asset: 'native', max: 'lots' } as PolicyRule
      const decision = engine.evaluate(intent(), {
        now,
        rules: [{ scope: 'wallet', rule: broken }],
        recent: [],
        isNewRecipient: false,
      })
      expect(decision).toMatchObject({ decision: 'deny', ruleId: 'broken', outcomes: [{ scope: 'wallet' }] })
    })

    it('reads equal rules from a fresh copy (as storage returns them) identically', () => {
      const rules = engine.validateRules([deny, cap])
      const copy = JSON.parse(JSON.stringify(rules)) as PolicyRule[]
      const context = (list: PolicyRule[]) => ({
        now,
        rules: list.map((rule) => ({ scope: 'tenant' as const, rule })),
        recent: [],
        isNewRecipient: false,
      })
      expect(engine.evaluate(intent(), context(copy))).toEqual(engine.evaluate(intent(), context(rules)))
    })
  })

  describe('validateRules', () => {
    it('assigns ids, keeps given ones, and checksums addresses', () => {
      const [first, second] = engine.validateRules([
        { type: 'allow_chains', chains: ['devnet'] },
        { id: 'mine', type: 'deny_recipients', addresses: [bob.toLowerCase()] },
      ])
      expect(first!.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(second).toMatchObject({ id: 'mine', addresses: [bob] })
    })

    it('rejects unknown fields, unknown kinds, bad amounts and bad addresses with paths', () => {
      const cases: [unknown, (string | number)[]][] = [
        [{ type: 'max_per_tx', asset: 'native', max: '1', maxx: '2' }, [0]],
        [{ type: 'max_per_tx', asset: 'native', max: 1 }, [0, 'max']],
        [{ type: 'max_per_tx', asset: 'native', max: '-1' }, [0, 'max']],
        [{ type: 'max_per_tx', asset: 'native', max: '1e18' }, [0, 'max']],
        [{ type: 'max_per_tx', asset: 'native', max: '0x10' }, [0, 'max']],
        [{ type: 'max_per_tx', asset: 'native', max: '' }, [0, 'max']],
        [{ type: 'spend_limit', asset: 'native', max: '1', window: '1 day' }, [0, 'window']],
        [
          { type: 'allow_recipients', addresses: ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293Bc'] },
          [0, 'addresses', 0],
        ],
        [{ type: 'allow_recipients', addresses: ['0x1234'] }, [0, 'addresses', 0]],
        [
          { type: 'allow_contracts', contracts: [{ address: router, selectors: ['0x1234'] }] },
          [0, 'contracts', 0],
        ],
        [{ type: 'rate_limit', max: 1.5, window: '1h' }, [0, 'max']],
        [{ type: 'teleport' }, [0, 'type']],
      ]
      for (const [rule, path] of cases) {
        const error = errorOf(() => engine.validateRules([rule]))
        expect(error).toMatchObject({ code: 'validation_failed' })
        const issues = (error as { details: { issues: { path: unknown[] }[] } }).details.issues
        expect(issues[0]!.path.slice(0, path.length)).toEqual(path)
      }
    })

    it('rejects duplicate ids', () => {
      const rule = { id: 'same', type: 'allow_chains', chains: ['devnet'] }
      expect(errorOf(() => engine.validateRules([rule, rule]))).toMatchObject({ code: 'validation_failed' })
    })
  })

  describe('lookbackMs', () => {
    it('is the longest enabled spend or rate window', () => {
      const rules = engine
        .validateRules([
          { type: 'spend_limit', asset: 'native', max: '1', window: '24h' },
          { type: 'rate_limit', max: 5, window: '7d' },
          { type: 'rate_limit', max: 5, window: '30d', enabled: false },
          { type: 'max_per_tx', asset: 'native', max: '1' },
        ])
        .map((rule) => ({ scope: 'tenant' as const, rule }))
      expect(engine.lookbackMs(rules)).toBe(7 * 86_400_000)
      expect(engine.lookbackMs([])).toBe(0)
    })
  })

  describe('a payment out of a Safe (via)', () => {
    const safe: Address = '0x1f9090aaE28b8a3dCeaDf281B0F12828e676c326'
    const execTransaction = '0x6a761202' as const
    const payout = (overrides: Partial<PolicyIntent> = {}) =>
      usdcIntent(5_000_000n, {
        kind: 'multisig',
        to: bob,
        via: safe,
        data: execTransaction,
        effects: {
          status: 'known',
          source: 'simulated',
          effects: [
            {
              kind: 'out',
              asset: { address: usdc, symbol: 'USDC', decimals: 6, standard: 'erc20' },
              amount: 5_000_000n,
              counterparty: bob,
            },
          ],
        },
        ...overrides,
      })

    it('checks the real recipient against allow_recipients, not the Safe', () => {
      expect(evaluate([{ type: 'allow_recipients', addresses: [safe] }], payout())).toMatchObject({
        decision: 'deny',
        ruleType: 'allow_recipients',
        details: { recipient: bob },
      })
      expect(evaluate([{ type: 'allow_recipients', addresses: [bob] }], payout()).decision).toBe('allow')
      // A Safe call that pays nobody (no via) is a contract call: recipient lists do not apply.
      const call = payout({ to: safe, via: undefined, asset: intent().asset, amount: 0n, effects: undefined })
      expect(evaluate([{ type: 'allow_recipients', addresses: [] }], call).decision).toBe('allow')
    })

    it('denies when either the recipient or the paying Safe is on deny_recipients', () => {
      expect(evaluate([{ type: 'deny_recipients', addresses: [bob] }], payout())).toMatchObject({
        decision: 'deny',
        details: { recipient: bob, via: safe },
      })
      expect(evaluate([{ type: 'deny_recipients', addresses: [safe] }], payout()).decision).toBe('deny')
      expect(evaluate([{ type: 'deny_recipients', addresses: [alice] }], payout()).decision).toBe('allow')
    })

    it('judges allow_contracts on the Safe it calls, with the execTransaction selector', () => {
      expect(evaluate([{ type: 'allow_contracts', contracts: [{ address: bob }] }], payout())).toMatchObject({
        decision: 'deny',
        details: { contract: safe, selector: execTransaction },
      })
      const listed = { type: 'allow_contracts', contracts: [{ address: safe, selectors: [execTransaction] }] }
      expect(evaluate([listed], payout()).decision).toBe('allow')
    })

    it("counts the Safe's token amount in that token's limits", () => {
      const rule = { id: 'usdc', type: 'spend_limit', asset: 'USDC', max: '10', window: '24h' }
      expect(evaluate([rule], payout(), { recent: [spent(6_000_000n, 1000, usdc)] })).toMatchObject({
        decision: 'deny',
        ruleId: 'usdc',
        details: { spent: '6', requested: '5' },
      })
      // Without its effects, what the Safe pays is not known: the token limit cannot be satisfied.
      expect(evaluate([rule], payout({ effects: undefined }))).toMatchObject({
        decision: 'deny',
        ruleId: 'usdc',
        details: { effects: 'absent' },
      })
    })
  })

  describe('defaultTenantRules', () => {
    // Core values every outflow when a USD rule is in scope (the defaults hold one): ETH at 3000 USD.
    const valued = (amount: bigint) => intent({ amount, usd: { value: amount * 3000n } })

    it('validate as they are and behave as documented', () => {
      expect(engine.validateRules([...defaultTenantRules])).toHaveLength(defaultTenantRules.length)
      expect(evaluate([...defaultTenantRules], valued(ether / 2n)).decision).toBe('allow')
      expect(evaluate([...defaultTenantRules], valued(ether / 2n + 1n)).decision).toBe('require_approval')
      expect(evaluate([...defaultTenantRules], valued(ether + 1n)).decision).toBe('deny')
    })
  })

  describe('a 10k-address allowlist', () => {
    // Its speed is measured in bench/policy.bench.ts (`pnpm bench`); here, that it answers right.
    it('allows a listed recipient in any case among 10k and denies an unlisted one', () => {
      const addresses = Array.from({ length: 10_000 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`)
      addresses.push(alice)
      const rules = [{ type: 'allow_recipients', addresses }, ...defaultTenantRules]
      const usd = { value: 300n * ether }
      expect(evaluate(rules, intent({ to: alice.toLowerCase() as Address, usd })).decision).toBe('allow')
      const listed = `0x${(9_999).toString(16).padStart(40, '0')}` as Address
      expect(evaluate(rules, intent({ to: listed, usd })).decision).toBe('allow')
      expect(evaluate(rules, intent({ to: bob, usd }))).toMatchObject({
        decision: 'deny',
        details: { recipient: bob },
      })
    })
  })
})

describe('validateRules on edited input', () => {
  it('re-reads an input object that changed since it was last validated', () => {
    const engine = rulesPolicyEngine()
    const rule: Record<string, unknown> = { type: 'max_per_tx', asset: 'native', max: '1' }
    engine.validateRules([rule])
    rule.max = 'lots'
    let error: unknown
    try {
      engine.validateRules([rule])
    } catch (caught) {
      error = caught
    }
    expect(error).toMatchObject({ code: 'validation_failed' })
  })
})
