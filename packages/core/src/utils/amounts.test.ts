import { describe, expect, it } from 'vitest'
import { parseDuration } from '../schemas/parseDuration.js'
import { formatAmount, parseAmount } from './amounts.js'

function errorOf(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('parseAmount', () => {
  it('parses decimal strings exactly into base units', () => {
    expect(parseAmount('0.1', 18)).toBe(100_000_000_000_000_000n)
    expect(parseAmount('10', 6)).toBe(10_000_000n)
    expect(parseAmount('0.000001', 6)).toBe(1n)
    expect(parseAmount('1.50', 6)).toBe(1_500_000n)
    expect(parseAmount('0', 18)).toBe(0n)
    expect(parseAmount('7', 0)).toBe(7n)
    // Beyond float precision: must not round.
    expect(parseAmount('123456789.123456789123456789', 18)).toBe(123456789123456789123456789n)
  })

  it.each([
    ['1.0000001', 6, 'too_precise'],
    ['0.5', 0, 'too_precise'],
    ['-1', 18, 'negative'],
    ['+1', 18, 'signed'],
    ['1e18', 18, 'exponent'],
    ['1E-3', 18, 'exponent'],
    ['0x10', 18, 'hex'],
    ['', 18, 'empty'],
    [' 1', 18, 'whitespace'],
    ['1 000', 18, 'whitespace'],
    ['NaN', 18, 'not_decimal'],
    ['Infinity', 18, 'not_decimal'],
    ['.5', 18, 'not_decimal'],
    ['1.', 18, 'not_decimal'],
    ['1,5', 18, 'not_decimal'],
    ['１', 18, 'not_decimal'],
  ])('rejects %j (decimals %i) as %s', (value, decimals, reason) => {
    expect(errorOf(() => parseAmount(value, decimals))).toMatchObject({
      code: 'validation_failed',
      details: { reason },
    })
  })

  it('rejects JSON numbers and amounts beyond uint256', () => {
    expect(errorOf(() => parseAmount(1 as unknown as string, 18))).toMatchObject({
      code: 'validation_failed',
      details: { reason: 'not_a_string' },
    })
    expect(errorOf(() => parseAmount((2n ** 256n).toString(), 0))).toMatchObject({
      code: 'validation_failed',
      details: { reason: 'too_large' },
    })
  })

  it('rejects impossible decimals', () => {
    expect(errorOf(() => parseAmount('1', -1))).toMatchObject({ code: 'validation_failed' })
    expect(errorOf(() => parseAmount('1', 1.5))).toMatchObject({ code: 'validation_failed' })
  })
})

describe('formatAmount', () => {
  it('formats without trailing zeros and without floats', () => {
    expect(formatAmount(1_500_000n, 6)).toBe('1.5')
    expect(formatAmount(10n ** 18n, 18)).toBe('1')
    expect(formatAmount(1n, 18)).toBe('0.000000000000000001')
    expect(formatAmount(0n, 18)).toBe('0')
    expect(formatAmount(123456789123456789123456789n, 18)).toBe('123456789.123456789123456789')
  })

  it('round-trips with parseAmount', () => {
    for (const value of ['0.1', '1', '0.000000000000000001', '99999.999999']) {
      expect(formatAmount(parseAmount(value, 18), 18)).toBe(value)
    }
  })
})

describe('parseDuration', () => {
  it('parses s, m, h and d', () => {
    expect(parseDuration('30s')).toBe(30_000)
    expect(parseDuration('15m')).toBe(900_000)
    expect(parseDuration('1h')).toBe(3_600_000)
    expect(parseDuration('24h')).toBe(86_400_000)
    expect(parseDuration('7d')).toBe(604_800_000)
  })

  it.each(['', '0h', '1', 'h', '1.5h', '-1h', '1w', '1 h', '01h', '1H', '400d'])('rejects %j', (value) => {
    expect(errorOf(() => parseDuration(value))).toMatchObject({ code: 'validation_failed' })
  })
})
