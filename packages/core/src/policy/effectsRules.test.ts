import { type Address, maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Effect, Effects } from '../effects/types.js'
import type { PolicyIntent } from '../intents/types.js'
import { defaultTenantRules } from './defaultRules.js'
import { rulesPolicyEngine } from './rulesPolicyEngine.js'
import type { PolicyContext, ScopedRule, SpendEntry } from './types.js'

// The rules engine judging hand-built effects: what a call does, not what its fields say (#25).

const engine = rulesPolicyEngine()
const ether = 10n ** 18n
const wallet: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const attacker: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const friend: Address = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const usdc: Address = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'
const router: Address = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
const nft: Address = '0x976EA74026E726554dB657fA54763abd0C3a0aa9'
const now = new Date('2025-01-06T12:00:00.000Z')
const usdcAsset = { address: usdc, symbol: 'USDC', decimals: 6, standard: 'erc20' } as const
const ethAsset = { address: 'native', symbol: 'ETH', decimals: 18, standard: 'native' } as const
/** USD values in 10^-18 dollars: USDC at 1 dollar. */
const dollars = (amount: bigint) => ({ value: amount * 10n ** 12n })

const out = (amount: bigint, to: Address = attacker): Effect => ({
  kind: 'out',
  asset: usdcAsset,
  amount,
  counterparty: to,
  usd: dollars(amount),
})
const grant = (amount: bigint, spender: Address = attacker, unlimited = false): Effect => ({
  kind: 'grant',
  asset: usdcAsset,
  amount,
  counterparty: spender,
  ...(unlimited ? { unlimited: true as const } : { usd: dollars(amount) }),
})
const known = (...effects: Effect[]): Effects => ({ status: 'known', source: 'decoded', effects })

/** A call of 0 ETH to the USDC contract, whatever its calldata does. */
const call = (effects: Effects | undefined, overrides: Partial<PolicyIntent> = {}): PolicyIntent => ({
  kind: 'contract_call',
  chain: 'devnet',
  from: wallet,
  to: usdc,
  asset: { address: 'native', symbol: 'ETH', decimals: 18 },
  amount: 0n,
  data: '0xa9059cbb',
  effects,
  ...overrides,
})

function evaluate(rules: unknown[], intent: PolicyIntent, context: Partial<PolicyContext> = {}) {
  const scoped: ScopedRule[] = engine.validateRules(rules).map((rule) => ({ scope: 'tenant', rule }))
  return engine.evaluate(intent, { now, rules: scoped, recent: [], isNewRecipient: false, ...context })
}

const limits = [
  { by: 'address', asset: usdc },
  { by: 'symbol', asset: 'usdc' },
  { by: 'usd', asset: 'usd' },
]

describe('amount rules count every outflow of their asset', () => {
  it.each(limits)(
    'max_per_tx by $by counts a calldata transfer and names the effect it counted',
    ({ asset }) => {
      const rule = { id: 'cap', type: 'max_per_tx', asset, max: '1' }
      expect(evaluate([rule], call(known(out(1_000_000n)))).decision).toBe('allow')
      expect(evaluate([rule], call(known(out(5_000_000n))))).toMatchObject({
        decision: 'deny',
        ruleId: 'cap',
        details: {
          requested: '5',
          counted: [{ effect: 0, kind: 'out', counterparty: attacker, amount: '5' }],
        },
      })
    },
  )

  it.each(limits)(
    'spend_limit by $by sums the window’s stored effects and counts a grant as spent',
    ({ asset }) => {
      const rule = { id: 'day', type: 'spend_limit', asset, max: '10', window: '24h' }
      const past: SpendEntry = {
        asset: 'native',
        amount: 0n,
        at: now.getTime() - 60_000,
        to: usdc,
        usd: dollars(6_000_000n),
        effects: [grant(6_000_000n)],
      }
      expect(evaluate([rule], call(known(out(4_000_000n))), { recent: [past] }).decision).toBe('allow')
      expect(evaluate([rule], call(known(out(4_000_001n))), { recent: [past] })).toMatchObject({
        decision: 'deny',
        details: { spent: '6', requested: '4.000001' },
      })
    },
  )

  it('sums several outflows of one call, and leaves other assets and inflows out', () => {
    const rule = { id: 'cap', type: 'max_per_tx', asset: 'USDC', max: '1' }
    const swapLike = known(out(600_000n), grant(500_000n, friend), {
      kind: 'in',
      asset: usdcAsset,
      amount: 50_000_000n,
      counterparty: friend,
    })
    expect(evaluate([rule], call(swapLike))).toMatchObject({
      decision: 'deny',
      details: { requested: '1.1', counted: [{ effect: 0 }, { effect: 1 }] },
    })
  })

  it('still counts the native value a call sends, effects known or not', () => {
    const rule = { id: 'eth', type: 'max_per_tx', asset: 'native', max: '1' }
    const withValue = (effects: Effects | undefined) =>
      call(effects, { asset: { address: 'native', symbol: 'ETH', decimals: 18 }, amount: 2n * ether })
    const nativeOut: Effect = { kind: 'out', asset: ethAsset, amount: 2n * ether, counterparty: usdc }
    expect(evaluate([rule], withValue(known(nativeOut))).decision).toBe('deny')
    // Unknown effects: the value is all a call can take of the wallet's own native coin.
    expect(evaluate([rule], withValue({ status: 'unknown', reason: 'no simulation' })).decision).toBe('deny')
    expect(evaluate([rule], withValue({ status: 'unknown', reason: 'no simulation' }), {}).ruleId).toBe('eth')
    expect(
      evaluate([rule], call({ status: 'unknown', reason: 'no simulation' }, { amount: ether })).decision,
    ).toBe('allow')
  })
})

describe('an unlimited grant', () => {
  it('is above any per-transaction limit, spend limit or approval threshold of its asset', () => {
    const unlimited = call(known(grant(maxUint256, attacker, true)))
    const cap = evaluate([{ id: 'cap', type: 'max_per_tx', asset: 'USDC', max: '1000000' }], unlimited)
    expect(cap).toMatchObject({ decision: 'deny', details: { unlimited: { counterparty: attacker } } })
    const day = { id: 'day', type: 'spend_limit', asset: 'usd', max: '1000000', window: '24h' }
    expect(evaluate([day], unlimited).decision).toBe('deny')
    const above = { id: 'above', type: 'require_approval', asset: 'USDC', above: '1000000' }
    expect(evaluate([above], unlimited).decision).toBe('require_approval')
  })

  it('of an asset with no price is left by a budget over priced assets to the grants rule', () => {
    const operator: Effect = {
      kind: 'grant',
      asset: { address: nft, symbol: 'APE', decimals: 0, standard: 'erc721' },
      amount: 0n,
      unlimited: true,
      counterparty: attacker,
      usd: { error: { code: 'no_price_feed', asset: nft, symbol: 'APE', reason: 'no feed' } },
    }
    const decision = evaluate([...defaultTenantRules], call(known(operator), { to: nft }))
    expect(decision).toMatchObject({ decision: 'require_approval', ruleId: 'default-approval-grants' })
  })

  it('to a venue of the chain is not an outflow (its router pulls only for the wallet’s own calls)', () => {
    const approveRouter = call(known(grant(maxUint256, router, true)))
    const rules = [{ id: 'cap', type: 'max_per_tx', asset: 'USDC', max: '1' }, ...defaultTenantRules]
    expect(evaluate(rules, approveRouter, { venues: [router] }).decision).toBe('allow')
    expect(evaluate(rules, approveRouter).decision).toBe('deny')
  })
})

describe('recipient rules judge every counterparty of the effects', () => {
  it('allow_recipients denies the token recipient inside calldata and a spender, not only `to`', () => {
    const rule = { id: 'only-friend', type: 'allow_recipients', addresses: [friend] }
    expect(evaluate([rule], call(known(out(1n, attacker))))).toMatchObject({
      decision: 'deny',
      details: { counterparty: attacker },
    })
    expect(evaluate([rule], call(known(grant(1n, attacker)))).decision).toBe('deny')
    expect(evaluate([rule], call(known(out(1n, friend)))).decision).toBe('allow')
  })

  it('deny_recipients denies a listed operator', () => {
    const rule = { id: 'no-attacker', type: 'deny_recipients', addresses: [attacker] }
    expect(evaluate([rule], call(known(grant(maxUint256, attacker, true))))).toMatchObject({
      decision: 'deny',
      details: { counterparty: attacker },
    })
  })
})

describe('unknown effects', () => {
  const unknown = call({ status: 'unknown', reason: 'the node cannot simulate' })
  const reverted = call({
    status: 'reverted',
    source: 'simulated',
    reason: 'transfer amount exceeds balance',
  })

  it('are judged by unknown_effects: deny, or pause for a human', () => {
    for (const subject of [unknown, reverted, call(undefined)]) {
      expect(evaluate([{ id: 'u', type: 'unknown_effects', action: 'deny' }], subject)).toMatchObject({
        decision: 'deny',
        ruleType: 'unknown_effects',
      })
      expect(
        evaluate([{ id: 'u', type: 'unknown_effects', action: 'require_approval' }], subject).decision,
      ).toBe('require_approval')
    }
    expect(evaluate([{ type: 'unknown_effects', action: 'deny' }], call(known(out(1n)))).decision).toBe(
      'allow',
    )
  })

  it('are never a transfer of 0: a token or USD rule without an unknown_effects rule denies', () => {
    for (const asset of ['USDC', 'usd']) {
      expect(evaluate([{ id: 'cap', type: 'max_per_tx', asset, max: '1000' }], unknown)).toMatchObject({
        decision: 'deny',
        ruleId: 'cap',
        details: { effects: 'unknown' },
      })
    }
    // Beside an unknown_effects rule, the amount rule counts what is known and leaves the rest to it.
    const paused = evaluate(
      [
        { id: 'cap', type: 'max_per_tx', asset: 'USDC', max: '1000' },
        { id: 'u', type: 'unknown_effects', action: 'require_approval' },
      ],
      unknown,
    )
    expect(paused).toMatchObject({ decision: 'require_approval', ruleId: 'u' })
  })
})

describe('require_approval grants', () => {
  it('pauses a grant to a spender neither listed nor a venue, and lets listed ones and revokes through', () => {
    const rule = { id: 'grants', type: 'require_approval', grants: true, spenders: [friend] }
    expect(evaluate([rule], call(known(grant(5n, attacker))))).toMatchObject({
      decision: 'require_approval',
      details: { triggers: ['grant'], grants: [{ spender: attacker, effect: 0 }] },
    })
    expect(evaluate([rule], call(known(grant(5n, friend)))).decision).toBe('allow')
    expect(evaluate([rule], call(known(grant(5n, router))), { venues: [router] }).decision).toBe('allow')
    expect(evaluate([rule], call(known(grant(0n, attacker)))).decision).toBe('allow')
  })

  it('rejects spenders without grants', () => {
    let thrown: unknown
    try {
      engine.validateRules([{ type: 'require_approval', always: true, spenders: [friend] }])
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ code: 'validation_failed' })
  })
})
