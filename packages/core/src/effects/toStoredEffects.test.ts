import { maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { fromStoredEffects } from './fromStoredEffects.js'
import { toStoredEffects } from './toStoredEffects.js'
import type { Effects } from './types.js'

const nft = '0x2f5263A5161A05df32a5C66eb94DFfD9f6e1D3f1'
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('toStoredEffects / fromStoredEffects', () => {
  it('keeps amounts, token ids, gas and a USD value as decimal strings, and reads them back exactly', () => {
    const effects: Effects = {
      status: 'known',
      source: 'simulated',
      gasUsed: 51_234n,
      effects: [
        {
          kind: 'out',
          asset: { standard: 'erc721', address: nft, symbol: 'APE', decimals: 0, tokenId: 2n ** 200n },
          amount: 1n,
          counterparty: bob,
        },
        {
          kind: 'grant',
          asset: { standard: 'erc20', address: nft, symbol: 'USDC', decimals: 6 },
          amount: maxUint256,
          unlimited: true,
          counterparty: bob,
        },
        {
          kind: 'out',
          asset: { standard: 'native', address: 'native', symbol: 'ETH', decimals: 18 },
          amount: 10n ** 18n,
          counterparty: bob,
          usd: { value: 3_000_123_456_789_000_000_001n },
        },
      ],
    }
    const stored = toStoredEffects(effects)
    expect(JSON.parse(JSON.stringify(stored))).toEqual(stored)
    expect(stored.status === 'known' && stored.effects[0]!.asset.tokenId).toBe((2n ** 200n).toString())
    expect(stored.status === 'known' && stored.effects[2]!.usd?.value).toBe('3000.123456789000000001')
    expect(fromStoredEffects(JSON.parse(JSON.stringify(stored)))).toEqual(effects)
  })

  it('keeps reverted and unknown as they are', () => {
    const reverted: Effects = { status: 'reverted', source: 'simulated', reason: 'no', data: '0xe450d38c' }
    expect(fromStoredEffects(toStoredEffects(reverted))).toEqual(reverted)
    expect(toStoredEffects({ status: 'unknown', reason: 'no simulation' })).toEqual({
      status: 'unknown',
      reason: 'no simulation',
    })
  })
})
