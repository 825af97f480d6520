import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import {
  addressSchema,
  decimalAmountSchema,
  displayTextSchema,
  durationSchema,
  hexDataSchema,
  isValidAddress,
} from './primitives.js'

const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('addressSchema', () => {
  it('accepts lowercase, uppercase and checksummed forms and outputs the checksum', () => {
    expect(addressSchema.parse(checksummed)).toBe(checksummed)
    expect(addressSchema.parse(checksummed.toLowerCase())).toBe(checksummed)
    expect(addressSchema.parse(`0x${checksummed.slice(2).toUpperCase()}`)).toBe(checksummed)
  })

  it.each([
    ['bad checksum', '0x52908400098527886e0F7030069857D2E4169EE7'],
    ['too short', '0x52908400098527886E0F7030069857D2E4169EE'],
    ['too long', `${checksummed}0`],
    ['no prefix', checksummed.slice(2)],
    ['uppercase prefix', `0X${checksummed.slice(2)}`],
    ['non-hex', '0x52908400098527886E0F7030069857D2E4169EEG'],
    ['empty', ''],
  ])('rejects %s', (_name, value) => {
    expect(addressSchema.safeParse(value).success).toBe(false)
    expect(isValidAddress(value)).toBe(false)
  })

  it('rejects non-strings', () => {
    expect(addressSchema.safeParse(123).success).toBe(false)
  })
})

describe('decimalAmountSchema', () => {
  it('accepts decimal strings', () => {
    for (const value of ['0.1', '10', '0', '1.000000000000000001']) {
      expect(decimalAmountSchema.parse(value)).toBe(value)
    }
  })

  it.each([[0.1], [10], ['-1'], ['1e5'], ['0x10'], [''], [' 1'], ['NaN'], ['.5'], [null]])(
    'rejects %j',
    (value) => {
      expect(decimalAmountSchema.safeParse(value).success).toBe(false)
    },
  )

  it('says why in the issue message', () => {
    const result = decimalAmountSchema.safeParse('1e18')
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toMatch(/exponent/)
  })
})

describe('hexDataSchema', () => {
  it('accepts even-length hex and lowercases it', () => {
    expect(hexDataSchema.parse('0x')).toBe('0x')
    expect(hexDataSchema.parse('0xA9059CBB')).toBe('0xa9059cbb')
  })

  it.each(['0x1', 'a9059cbb', '0xzz', ''])('rejects %j', (value) => {
    expect(hexDataSchema.safeParse(value).success).toBe(false)
  })
})

describe('durationSchema', () => {
  it('accepts windows and rejects malformed ones', () => {
    expect(durationSchema.parse('24h')).toBe('24h')
    expect(durationSchema.safeParse('24 hours').success).toBe(false)
  })
})

describe('displayTextSchema', () => {
  const line = displayTextSchema(100).check(z.minLength(1))
  const text = displayTextSchema(100, { multiline: true })

  it('keeps ordinary text of any script, trimmed: emoji, right-to-left words, joiners', () => {
    for (const value of ['research-agent', 'Zoë’s bot 🤖', 'שלום עולם', 'مرحبا', '👩‍💻 dev', 'a\u200db']) {
      expect(line.parse(` ${value} `)).toBe(value)
    }
    expect(text.parse('first line\n\tsecond\r\nthird')).toBe('first line\n\tsecond\r\nthird')
  })

  it.each([
    ['NUL', 'a\u0000b'],
    ['an escape sequence', 'a\u001b[31mb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a bidi embedding', 'a\u202ab'],
    ['a bidi override', 'invoice\u202efdp.exe'],
    ['a bidi isolate', 'a\u2066b\u2069'],
    ['a first-strong isolate', 'a\u2068b'],
    ['a line separator', 'a\u2028b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', 'a\udc00'],
  ])('refuses %s on one line or several', (_name, value) => {
    for (const schema of [line, text]) {
      const parsed = schema.safeParse(value)
      expect(parsed.success).toBe(false)
    }
  })

  it('refuses tab and line breaks in single-line text only', () => {
    for (const value of ['a\nb', 'a\rb', 'a\tb']) {
      expect(line.safeParse(value).success).toBe(false)
      expect(text.safeParse(value).success).toBe(true)
    }
  })

  it('counts the limit after trimming', () => {
    expect(displayTextSchema(3).safeParse('  abc  ').success).toBe(true)
    expect(displayTextSchema(3).safeParse('abcd').success).toBe(false)
  })
})
