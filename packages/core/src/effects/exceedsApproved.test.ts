import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { effectsHash } from './effectsHash.js'
import { exceedsApproved } from './exceedsApproved.js'
import type { StoredEffect, StoredEffects } from './types.js'

const usdc = {
  standard: 'erc20' as const,
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const,
  symbol: 'USDC',
  decimals: 6,
}
const alice: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const mallory: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

const known = (...effects: StoredEffect[]): StoredEffects => ({
  status: 'known',
  source: 'simulated',
  effects,
})
const out = (amount: string, counterparty = alice): StoredEffect => ({
  kind: 'out',
  asset: usdc,
  amount,
  counterparty,
})
const grant = (amount: string, unlimited?: true): StoredEffect => ({
  kind: 'grant',
  asset: usdc,
  amount,
  counterparty: alice,
  ...(unlimited ? { unlimited } : {}),
})

describe('exceedsApproved', () => {
  it('lets through the same effects, or less of them', () => {
    expect(exceedsApproved(known(out('5000000')), known(out('5000000')))).toBeUndefined()
    expect(exceedsApproved(known(out('5000000')), known(out('4000000')))).toBeUndefined()
    expect(exceedsApproved(known(out('5000000')), known())).toBeUndefined()
  })

  it('stops more out, another counterparty, another asset or a new grant', () => {
    expect(exceedsApproved(known(out('5000000')), known(out('5000001')))).toMatch(/send 5000001/)
    expect(exceedsApproved(known(out('5000000')), known(out('1', mallory)))).toMatch(mallory)
    const native = {
      ...out('1'),
      asset: { standard: 'native' as const, address: 'native' as const, symbol: 'ETH', decimals: 18 },
    }
    expect(exceedsApproved(known(out('5000000')), known(native))).toMatch(/ETH/)
    expect(exceedsApproved(known(out('5000000')), known(out('5000000'), grant('1')))).toMatch(/let .* spend/)
  })

  it('stops an unlimited grant where a bounded one was approved, not the other way round', () => {
    expect(exceedsApproved(known(grant('10')), known(grant('0', true)))).toMatch(/unlimited/)
    expect(exceedsApproved(known(grant('0', true)), known(grant('10')))).toBeUndefined()
  })

  it('ignores inflows and revokes, and stops known effects that became unknown or a revert', () => {
    expect(exceedsApproved(known(), known({ ...out('9'), kind: 'in' }))).toBeUndefined()
    expect(exceedsApproved(known(), known({ ...grant('9'), kind: 'revoke' }))).toBeUndefined()
    expect(exceedsApproved(known(), { status: 'unknown', reason: 'no simulation' })).toMatch(/unknown/)
    expect(exceedsApproved(known(), { status: 'reverted', source: 'simulated', reason: 'x' })).toMatch(
      /reverted/,
    )
    expect(exceedsApproved({ status: 'unknown', reason: 'no simulation' }, known(out('1')))).toBeUndefined()
  })
})

describe('effectsHash', () => {
  it('is the same for the same effects whatever the key order or USD value, and differs for another amount', () => {
    const a = known(out('5000000'))
    const reordered: StoredEffects = {
      effects: [{ counterparty: alice, amount: '5000000', asset: usdc, kind: 'out', usd: { value: '5' } }],
      source: 'simulated',
      status: 'known',
    }
    expect(effectsHash(reordered)).toBe(effectsHash(a))
    expect(effectsHash(known(out('5000001')))).not.toBe(effectsHash(a))
  })
})
