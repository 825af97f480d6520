import { parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import { policyRuleSchema, type RulesEngineRuleInput } from '../policy/ruleSchemas.js'
import { permissionsFromRules } from './permissionsFromRules.js'
import { withNativeFloor } from './withNativeFloor.js'

const expiresAt = 2_000_000_000
const floor = { perCall: parseEther('1'), allowance: { amount: parseEther('5'), period: 86_400 } }
const compile = (rules: RulesEngineRuleInput[]) =>
  permissionsFromRules(
    rules.map((rule, index) => policyRuleSchema.parse({ id: `r${index}`, ...rule })),
    { expiresAt, tokens: [] },
  )

describe('withNativeFloor', () => {
  it('bounds the native coin by the floor when there are no rules, or only rules judged off chain', () => {
    expect(withNativeFloor(compile([]), floor)).toEqual({
      permissions: { expiresAt, native: floor },
      offChainOnly: [],
      floored: true,
    })
    const offChain = compile([{ type: 'rate_limit', max: 10, window: '1h' }])
    expect(withNativeFloor(offChain, floor)).toMatchObject({ permissions: { native: floor }, floored: true })
  })

  it('keeps the rules’ own native bound, even one looser than the floor, and either kind alone', () => {
    const loose = compile([{ type: 'max_per_tx', asset: 'native', max: '50' }])
    expect(withNativeFloor(loose, floor)).toEqual({ ...loose, floored: false })
    const daily = compile([{ type: 'spend_limit', asset: 'native', max: '20', window: '24h' }])
    expect(withNativeFloor(daily, floor).permissions.native).toEqual({
      allowance: { amount: parseEther('20'), period: 86_400 },
    })
  })
})
