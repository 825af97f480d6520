import type { PolicyIntent, UsdValuation } from '../intents/types.js'
import type { PolicyContext, PolicyEngine, PolicyRule, ScopedRule } from '../policy/types.js'
import { type TestRunner, testOrSkip } from './testRunner.js'

/** Rule JSON in the engine's own dialect that, for the suite's sample intent, decides as named. */
export type PolicySampleRules = {
  /** Denies the sample intent. */
  deny: unknown
  /** Pauses the sample intent for approval. */
  requireApproval: unknown
  /** Applies to the sample intent and allows it. */
  allow: unknown
}

export type PolicyEngineConformanceOptions = {
  create: () => PolicyEngine
  /** Enables the precedence tests (deny beats require_approval beats allow). */
  samples?: PolicySampleRules | undefined
  /** The intent the samples are written for; defaults to `sampleIntent`. */
  intent?: PolicyIntent | undefined
  /**
   * A rule in the engine's dialect that denies any single intent worth more than 100 US dollars
   * (judged by `intent.usd`), e.g. `{ type: 'max_per_tx', asset: 'usd', max: '100' }`. Enables the
   * USD tests; an engine with no dollar rules passes `skipUsd` with its reason instead.
   */
  usdCap?: unknown
  skipUsd?: string | undefined
  /**
   * A rule in the engine's dialect that denies any single intent moving more than 1 whole unit of
   * `token` (an ERC-20 of 6 decimals), e.g. `{ type: 'max_per_tx', asset: token, max: '1' }`.
   * Enables the effects tests (`intent.effects`: a token moved by calldata is counted, unknown
   * effects are never "moves nothing"); an engine that ignores effects passes `skipEffects` instead.
   */
  tokenCap?: ((token: `0x${string}`) => unknown) | undefined
  skipEffects?: string | undefined
  /**
   * A rule in the engine's dialect that denies an intent once the native coin counted in its window,
   * this intent included, passes 1 whole unit, e.g. `{ type: 'spend_limit', asset: 'native', max: '1',
   * window: '24h' }`. Enables the agent-scope tests: stored in an agent key's scope it counts
   * `context.agentRecent` (every wallet of the key), in the tenant's or a wallet's `context.recent`.
   * An engine without windowed rules passes `skipAgentWindow` with its reason instead.
   */
  windowCap?: unknown
  skipAgentWindow?: string | undefined
  /** A rule the engine must refuse in validateRules. Default: an object with an unknown `type`. */
  invalidRule?: unknown
}

/** The default intent of the suite: 0.1 native coin on "devnet" to a fixed address. */
export const sampleIntent: PolicyIntent = {
  kind: 'transfer',
  chain: 'devnet',
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  asset: { address: 'native', symbol: 'ETH', decimals: 18 },
  amount: 100_000_000_000_000_000n,
}

/**
 * Registers the PolicyEngine port's conformance tests with the given test runner.
 * @example runPolicyEngineConformance({ describe, it, expect }, { create: () => rulesPolicyEngine() })
 */
export const runPolicyEngineConformance = (runner: TestRunner, options: PolicyEngineConformanceOptions) => {
  const { describe, it, expect } = runner
  const intent = options.intent ?? sampleIntent
  const now = new Date('2025-01-06T12:00:00.000Z')
  const context = (rules: readonly ScopedRule[] = []): PolicyContext => ({
    now,
    rules,
    recent: [{ asset: intent.asset.address, amount: 1n, at: now.getTime() - 1_000, to: intent.to }],
    isNewRecipient: false,
  })

  describe(`PolicyEngine conformance: ${options.create().name}`, () => {
    it('has a name', () => {
      const name = options.create().name
      expect(typeof name === 'string' && name.length > 0).toBe(true)
    })

    it('allows when there are no rules, with the decision shape', () => {
      const decision = options.create().evaluate(intent, context())
      expect(decision.decision).toBe('allow')
      expect(typeof decision.reason).toBe('string')
      expect(Array.isArray(decision.outcomes)).toBe(true)
    })

    it('accepts an empty rule set and needs no history for it', () => {
      const engine = options.create()
      expect(engine.validateRules([])).toEqual([])
      expect(engine.lookbackMs([])).toBe(0)
    })

    it('rejects an invalid rule with validation_failed', () => {
      const invalid = options.invalidRule ?? { type: 'no_such_rule_kind_for_conformance', id: 'x' }
      expect(thrown(() => options.create().validateRules([invalid]))).toMatchObject({
        code: 'validation_failed',
      })
    })

    it('reads no clock and mutates no input', () => {
      const engine = options.create()
      const rules = scoped(
        engine,
        options.samples ? [options.samples.allow, options.samples.requireApproval] : [],
      )
      const frozenIntent = deepFreeze(structuredClone(intent))
      const frozenContext = deepFreeze({ ...context(rules), now: new Date(now) })
      const decision = withoutClock(() => engine.evaluate(frozenIntent, frozenContext))
      expect(['allow', 'deny', 'require_approval'].includes(decision.decision)).toBe(true)
    })

    it('is deterministic for the same inputs', () => {
      const engine = options.create()
      const rules = scoped(engine, options.samples ? Object.values(options.samples) : [])
      const first = engine.evaluate(intent, context(rules))
      expect(engine.evaluate(intent, context(rules))).toEqual(first)
      expect(options.create().evaluate(intent, context(rules))).toEqual(first)
    })

    it('evaluates intents and history that carry USD values, and needs no prices without rules', () => {
      const engine = options.create()
      expect(engine.needsUsd?.([]) ?? false).toBe(false)
      const valued = deepFreeze({ ...structuredClone(intent), usd: usdOf(50) })
      const decision = withoutClock(() =>
        engine.evaluate(
          valued,
          deepFreeze({ ...context(), recent: [{ ...context().recent[0]!, usd: usdOf(10) }] }),
        ),
      )
      expect(decision.decision).toBe('allow')
    })

    const windowSkip =
      options.windowCap === undefined ? (options.skipAgentWindow ?? 'no windowCap rule given') : undefined
    // 0.95 of the coin spent within the window: the sample intent (0.1) takes a count over 1 past the cap.
    const nearlyCapped = [
      { asset: intent.asset.address, amount: 95n * 10n ** 16n, at: now.getTime() - 1_000, to: intent.to },
    ]
    const judgedIn = (scope: ScopedRule['scope'], spent: Pick<PolicyContext, 'recent' | 'agentRecent'>) => {
      const engine = options.create()
      const [cap] = engine.validateRules([options.windowCap])
      return engine.evaluate(intent, { ...context([{ scope, rule: cap! }]), ...spent }).decision
    }
    testOrSkip(
      runner,
      'an agent-scope window counts every wallet of the key (agentRecent), not only this wallet’s',
      windowSkip,
      () => {
        // Another wallet of the key spent it: the wallet's own history is empty.
        const spent = { recent: [], agentRecent: nearlyCapped }
        expect(judgedIn('agent', spent)).toBe('deny')
        expect(judgedIn('wallet', spent)).toBe('allow')
        expect(judgedIn('tenant', spent)).toBe('allow')
      },
    )
    testOrSkip(runner, 'an agent-scope window without agentRecent counts recent', windowSkip, () => {
      expect(judgedIn('agent', { recent: nearlyCapped })).toBe('deny')
      expect(judgedIn('agent', { recent: [] })).toBe('allow')
    })

    const usdSkip = options.usdCap === undefined ? (options.skipUsd ?? 'no usdCap rule given') : undefined
    const effectsSkip =
      options.tokenCap === undefined ? (options.skipEffects ?? 'no tokenCap rule given') : undefined
    // The hostile shape of #25: a call of 0 native to the token, whose calldata moves the token.
    const tokenCall = (effects: PolicyIntent['effects']): PolicyIntent => ({
      ...structuredClone(intent),
      kind: 'contract_call',
      to: sampleToken,
      asset: { address: 'native', symbol: 'ETH', decimals: 18 },
      amount: 0n,
      data: '0xa9059cbb',
      effects,
    })
    const moved = (amount: bigint): PolicyIntent['effects'] => ({
      status: 'known',
      source: 'decoded',
      effects: [
        {
          kind: 'out',
          asset: { address: sampleToken, symbol: 'TKN', decimals: 6, standard: 'erc20' },
          amount,
          counterparty: intent.to,
        },
      ],
    })

    testOrSkip(
      runner,
      'counts a token its calldata moves (intent.effects), not the call’s value',
      effectsSkip,
      () => {
        const engine = options.create()
        const rules = scoped(engine, [options.tokenCap!(sampleToken)])
        expect(engine.evaluate(tokenCall(moved(5_000_000n)), context(rules)).decision).toBe('deny')
        expect(engine.evaluate(tokenCall(moved(500_000n)), context(rules)).decision).toBe('allow')
      },
    )

    testOrSkip(runner, 'never allows unknown or missing effects as moving nothing', effectsSkip, () => {
      const engine = options.create()
      const rules = scoped(engine, [options.tokenCap!(sampleToken)])
      const unknown = tokenCall({ status: 'unknown', reason: 'not simulable here' })
      expect(engine.evaluate(unknown, context(rules)).decision === 'allow').toBe(false)
      const reverted = tokenCall({ status: 'reverted', source: 'simulated', reason: 'execution reverted' })
      expect(engine.evaluate(reverted, context(rules)).decision === 'allow').toBe(false)
      expect(engine.evaluate(tokenCall(undefined), context(rules)).decision === 'allow').toBe(false)
    })

    testOrSkip(runner, 'asks for USD values when a rule measures in dollars', usdSkip, () => {
      const engine = options.create()
      expect(typeof engine.needsUsd).toBe('function')
      expect(engine.needsUsd!(scoped(engine, [options.usdCap]))).toBe(true)
    })

    testOrSkip(runner, 'judges a dollar rule by intent.usd, whatever the asset', usdSkip, () => {
      const engine = options.create()
      const rules = scoped(engine, [options.usdCap])
      const decide = (usd: UsdValuation) => engine.evaluate({ ...intent, usd }, context(rules)).decision
      expect(decide(usdOf(100))).toBe('allow')
      expect(decide({ value: usdOf(100).value! + 1n })).toBe('deny')
      const token = { address: sampleToken, symbol: 'TKN', decimals: 6 } as const
      expect(engine.evaluate({ ...intent, asset: token, usd: usdOf(101) }, context(rules)).decision).toBe(
        'deny',
      )
    })

    testOrSkip(runner, 'denies an intent it cannot value: never counted as zero', usdSkip, () => {
      const engine = options.create()
      const rules = scoped(engine, [options.usdCap])
      const stale: UsdValuation = {
        error: { code: 'stale_price', asset: 'native', symbol: 'ETH', reason: 'the ETH/USD answer is stale' },
      }
      expect(engine.evaluate({ ...intent, usd: stale }, context(rules)).decision).toBe('deny')
      expect(engine.evaluate({ ...intent, usd: undefined }, context(rules)).decision).toBe('deny')
    })

    const samples = options.samples
    if (!samples) {
      it.skip?.('precedence (skipped: no sample rules given)', () => {})
      return
    }

    it('validates the sample rules into rules with an id and a type', () => {
      const rules = options.create().validateRules([samples.deny, samples.requireApproval, samples.allow])
      expect(rules).toHaveLength(3)
      for (const rule of rules)
        expect(typeof rule.id === 'string' && typeof rule.type === 'string').toBe(true)
    })

    it('each sample decides alone and names its rule', () => {
      const engine = options.create()
      for (const [sample, expected] of [
        [samples.deny, 'deny'],
        [samples.requireApproval, 'require_approval'],
      ] as const) {
        const rules = scoped(engine, [sample])
        const decision = engine.evaluate(intent, context(rules))
        expect(decision).toMatchObject({ decision: expected, ruleId: rules[0]!.rule.id })
      }
      expect(engine.evaluate(intent, context(scoped(engine, [samples.allow]))).decision).toBe('allow')
    })

    it('deny beats require_approval beats allow, in any order', () => {
      const engine = options.create()
      const [deny, pause, allow] = engine.validateRules([
        samples.deny,
        samples.requireApproval,
        samples.allow,
      ])
      const decide = (rules: PolicyRule[]) =>
        engine.evaluate(intent, context(rules.map((rule) => ({ scope: 'tenant', rule })))).decision
      expect(decide([allow!, pause!, deny!])).toBe('deny')
      expect(decide([deny!, allow!, pause!])).toBe('deny')
      expect(decide([allow!, pause!])).toBe('require_approval')
      expect(decide([pause!, allow!])).toBe('require_approval')
      expect(decide([allow!])).toBe('allow')
    })

    for (const scope of ['agent', 'wallet'] as const) {
      it(`a ${scope}-scope deny wins over a tenant-scope allow`, () => {
        const engine = options.create()
        const [deny, allow] = engine.validateRules([samples.deny, samples.allow])
        const decision = engine.evaluate(
          intent,
          context([
            { scope: 'tenant', rule: allow! },
            { scope, rule: deny! },
          ]),
        )
        expect(decision).toMatchObject({ decision: 'deny', ruleId: deny!.id })
      })
    }
  })
}

const sampleToken = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'

/** A USD valuation of whole dollars (values are 10^-18 USD). */
function usdOf(dollars: number): UsdValuation {
  return { value: BigInt(dollars) * 10n ** 18n }
}

function scoped(engine: PolicyEngine, rules: unknown[]): ScopedRule[] {
  return engine.validateRules(rules).map((rule) => ({ scope: 'tenant', rule }))
}

function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  return undefined
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !(value instanceof Date) && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

// Replaces the global clock for the duration of `fn`, so an engine that peeks at it fails loudly.
function withoutClock<T>(fn: () => T): T {
  const RealDate = globalThis.Date
  const fail = () => {
    throw new Error('PolicyEngine read the clock; use context.now')
  }
  class NoClockDate extends RealDate {
    constructor(...args: ConstructorParameters<typeof Date> | []) {
      if (args.length === 0) fail()
      super(...(args as [number]))
    }
    static override now(): number {
      return fail()
    }
  }
  globalThis.Date = NoClockDate as DateConstructor
  try {
    return fn()
  } finally {
    globalThis.Date = RealDate
  }
}
