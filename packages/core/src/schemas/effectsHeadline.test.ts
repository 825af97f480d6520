import { describe, expect, it } from 'vitest'
import { effectsHeadline, type HeadlineEffect, orderEffects } from './effectsHeadline.js'

const spender = '0xBEbeB0A4D6B2F0D34b3e9B1A4C4b6f1C2d3E4F50'
const payee = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const usdc = { symbol: 'USDC', decimals: 6, standard: 'erc20' }
const eth = { symbol: 'ETH', decimals: 18, standard: 'native' }
const short = (address: string) => `${address.slice(0, 6)}…`

describe('effectsHeadline', () => {
  it('leads an approve with its spender and the token, valued: not with the token contract and 0 ETH', () => {
    const grant: HeadlineEffect = {
      kind: 'grant',
      asset: usdc,
      amount: '500000000',
      counterparty: spender,
      usd: { value: '500' },
    }
    const effects = { status: 'known' as const, effects: [grant] }
    expect(effectsHeadline(effects, { name: short })).toBe('Allow 0xBEbe… to spend 500 USDC (≈ $500)')
    expect(effectsHeadline(effects)).toBe(`Allow ${spender} to spend 500 USDC (≈ $500)`)
  })

  it('lists every effect, the largest outflow first: by USD where valued, else by amount', () => {
    const small: HeadlineEffect = {
      kind: 'out',
      asset: eth,
      amount: '10000000000000000',
      counterparty: payee,
    }
    const incoming: HeadlineEffect = { kind: 'in', asset: usdc, amount: '7000000', counterparty: payee }
    const big: HeadlineEffect = {
      kind: 'grant',
      asset: usdc,
      amount: '1234000000',
      counterparty: spender,
      usd: { value: '1234.5' },
    }
    const cheap: HeadlineEffect = { ...small, amount: '100000000000000000', usd: { value: '300' } }
    const known = { status: 'known' as const, effects: [incoming, small, big] }
    expect(effectsHeadline(known, { name: short })).toBe(
      'Allow 0xBEbe… to spend 1234 USDC (≈ $1,234.50); Send 0.01 ETH to 0x7099…; Receive 7 USDC from 0x7099…',
    )
    expect(orderEffects([cheap, big])).toEqual([big, cheap])
    const unlimited: HeadlineEffect = { ...big, amount: '0', unlimited: true, usd: undefined }
    expect(orderEffects([big, unlimited])[0]).toBe(unlimited)
    expect(effectsHeadline({ status: 'known', effects: [unlimited] }, { name: short })).toBe(
      'Allow 0xBEbe… to spend any amount of USDC (unlimited)',
    )
  })

  it('says when nothing is known, or nothing moves', () => {
    expect(effectsHeadline({ status: 'unknown', reason: 'the node cannot simulate' })).toBe(
      'What it does could not be predicted: the node cannot simulate',
    )
    expect(effectsHeadline({ status: 'reverted', reason: 'ERC20: insufficient balance' })).toBe(
      'Would revert as sent: ERC20: insufficient balance',
    )
    expect(effectsHeadline({ status: 'known', effects: [] })).toBe('Moves no asset and grants nothing')
  })
})
