import { parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import type { TokenInfo } from '../chain/types.js'
import { policyRuleSchema, type RulesEngineRuleInput } from '../policy/ruleSchemas.js'
import { permissionsFromRules } from './permissionsFromRules.js'

const usdc: TokenInfo = { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', symbol: 'USDC', decimals: 6 }
const dai: TokenInfo = { address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', symbol: 'DAI', decimals: 18 }
const router = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
const friend = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9'
const dex = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9'
const expiresAt = 2_000_000_000

const compile = (rules: RulesEngineRuleInput[]) =>
  permissionsFromRules(
    rules.map((rule, index) => policyRuleSchema.parse({ id: `r${index}`, ...rule })),
    { expiresAt, tokens: [usdc, dai], venues: [router] },
  )

describe('permissionsFromRules', () => {
  it('compiles native caps and allowances, keeping the smallest of each kind per asset', () => {
    const { permissions, offChainOnly } = compile([
      { type: 'max_per_tx', asset: 'native', max: '1' },
      { type: 'max_per_tx', asset: 'native', max: '0.5' },
      { type: 'spend_limit', asset: 'native', max: '3', window: '24h' },
      { type: 'spend_limit', asset: 'native', max: '10', window: '7d' },
    ])
    expect(permissions).toEqual({
      expiresAt,
      native: { perCall: parseEther('0.5'), allowance: { amount: parseEther('3'), period: 86_400 } },
    })
    expect(offChainOnly.map((rule) => rule.ruleId)).toEqual(['r0', 'r3'])
  })

  it('gives an ERC-20 its spend_limit as allowance, or its max_per_tx as an allowance per second', () => {
    const { permissions, offChainOnly } = compile([
      { type: 'spend_limit', asset: 'USDC', max: '100.1234567', window: '1h' },
      { type: 'max_per_tx', asset: 'USDC', max: '50' },
      { type: 'max_per_tx', asset: dai.address, max: '5' },
    ])
    expect(permissions.tokens).toEqual([
      { token: usdc.address, allowance: { amount: parseUnits('100.123456', 6), period: 3_600 } },
      { token: dai.address, allowance: { amount: parseUnits('5', 18), period: 1 } },
    ])
    // r1 stays off chain; r0 and r2 are compiled, but with no targets list an approve escapes them.
    expect(offChainOnly.map((rule) => rule.ruleId)).toEqual(['r1', 'r0', 'r2'])
  })

  it('an ERC-20 limit beside a targets list is airtight: nothing about it is off chain', () => {
    const { permissions, offChainOnly } = compile([
      { type: 'spend_limit', asset: 'USDC', max: '10', window: '1d' },
      { type: 'allow_recipients', addresses: [friend] },
      { type: 'allow_contracts', contracts: [{ address: dex }] },
    ])
    expect(permissions.tokens).toHaveLength(1)
    expect(permissions.targets).toContain(dex)
    expect(offChainOnly).toEqual([])
  })

  it('leaves usd limits, unknown tokens and the judgement rules off chain', () => {
    const { permissions, offChainOnly } = compile([
      { type: 'spend_limit', asset: 'usd', max: '100', window: '24h' },
      { type: 'max_per_tx', asset: 'WBTC', max: '1' },
      { type: 'require_approval', always: true },
      { type: 'rate_limit', max: 3, window: '1h' },
      { type: 'deny_recipients', addresses: [friend] },
      { type: 'max_per_tx', asset: 'native', max: '1', enabled: false },
    ])
    expect(permissions).toEqual({ expiresAt })
    expect(offChainOnly.map((rule) => rule.type)).toEqual([
      'spend_limit',
      'max_per_tx',
      'require_approval',
      'rate_limit',
      'deny_recipients',
    ])
  })

  it('compiles targets only from allow_recipients and allow_contracts together, with tokens and venues', () => {
    const alone = compile([{ type: 'allow_recipients', addresses: [friend] }])
    expect(alone.permissions.targets).toBeUndefined()
    expect(alone.offChainOnly).toHaveLength(1)

    const both = compile([
      { type: 'allow_recipients', addresses: [friend] },
      { type: 'allow_contracts', contracts: [{ address: dex, selectors: ['0x12345678'] }] },
    ])
    expect(both.permissions.targets).toEqual([friend, dex, usdc.address, dai.address, router])
    expect(both.permissions.selectors).toBeUndefined()
    expect(both.offChainOnly).toEqual([expect.objectContaining({ ruleId: 'r1', type: 'allow_contracts' })])
  })
})
