import { describe, expect, it } from 'vitest'
import { sampleIntent } from '../testing/policyEngineConformance.js'
import { rulesPolicyEngine } from './rulesPolicyEngine.js'
import { sponsorshipOf } from './sponsorshipOf.js'
import { validateRules } from './validateRules.js'

const ether = 10n ** 18n
const now = new Date('2026-01-06T12:00:00.000Z')
const cap = { type: 'sponsor_gas', max: '0.05', window: '1d', over: 'wallet' }

describe('sponsor_gas and sponsorshipOf', () => {
  it('sponsors while spent + the op’s worst case stays within max (inclusive), counted over the rule’s window and scope', async () => {
    const asked: { since: Date; over: string }[] = []
    const spentSince = async (since: Date, over: 'wallet' | 'tenant') => {
      asked.push({ since, over })
      return ether / 100n // 0.01 ETH already sponsored
    }
    const atCap = await sponsorshipOf({ rules: [cap], now, maxCost: (ether * 4n) / 100n, spentSince })
    expect(atCap).toEqual({ sponsored: true, ruleIds: ['sponsor_gas'] })
    expect(asked).toEqual([{ since: new Date('2026-01-05T12:00:00.000Z'), over: 'wallet' }])

    const past = await sponsorshipOf({ rules: [cap], now, maxCost: (ether * 4n) / 100n + 1n, spentSince })
    expect(past).toEqual({
      sponsored: false,
      reason: 'cap_reached',
      details: {
        ruleId: undefined,
        max: (ether * 5n) / 100n + '',
        spent: ether / 100n + '',
        maxCost: (ether * 4n) / 100n + 1n + '',
        window: '1d',
      },
    })
  })

  it('no enabled rule: not sponsored (the wallet pays); an unreadable one fails closed; defaults are 1d over the tenant', async () => {
    const spentSince = async () => 0n
    expect(await sponsorshipOf({ rules: [], now, maxCost: 1n, spentSince })).toMatchObject({
      sponsored: false,
      reason: 'no_rule',
    })
    expect(
      await sponsorshipOf({ rules: [{ ...cap, enabled: false }], now, maxCost: 1n, spentSince }),
    ).toMatchObject({ sponsored: false, reason: 'no_rule' })
    expect(
      await sponsorshipOf({ rules: [{ type: 'sponsor_gas', max: '-1' }], now, maxCost: 1n, spentSince }),
    ).toMatchObject({ sponsored: false, reason: 'invalid_rule' })

    expect(validateRules([{ type: 'sponsor_gas', max: '0.1' }])).toMatchObject([
      { type: 'sponsor_gas', max: '0.1', window: '1d', over: 'tenant' },
    ])
    expect(() => validateRules([{ type: 'sponsor_gas', max: '0.1', over: 'everyone' }])).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    )
  })

  it('never judges a send: the engine allows an intent it would not sponsor', () => {
    const decision = rulesPolicyEngine().evaluate(sampleIntent, {
      now,
      rules: [{ scope: 'wallet', rule: { ...cap, max: '0' } }],
      recent: [],
      isNewRecipient: false,
    } as never)
    expect(decision).toMatchObject({ decision: 'allow', outcomes: [] })
  })
})
