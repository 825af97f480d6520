import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { auditJsonText, fromAuditJson, toAuditJson } from './auditJson.js'
import { auditSigner, verifyAuditSignature } from './auditSigner.js'
import { canonicalJson } from './canonicalJson.js'

describe('canonicalJson', () => {
  it('sorts keys at every depth, drops undefined members, writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null, undefined], c: 'x' }, e: undefined })).toBe(
      '{"a":{"c":"x","d":[true,null,null]},"b":1}',
    )
  })

  it('gives one text for the same value whatever the key order (as jsonb rewrites it)', () => {
    const stored = JSON.parse(JSON.stringify({ z: { y: 2, x: 1 }, a: 'é\u2028' }))
    expect(canonicalJson(stored)).toBe(canonicalJson({ a: 'é\u2028', z: { x: 1, y: 2 } }))
  })

  it('refuses what JSON cannot carry exactly', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError)
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError)
  })
})

describe('audit JSON', () => {
  it('carries bigints and dates through a JSON round trip', () => {
    const value = {
      amount: 10n ** 30n,
      at: new Date('2026-01-02T03:04:05.000Z'),
      list: [1n, 'a'],
      gone: undefined,
    }
    const text = JSON.stringify(toAuditJson(value))
    expect(fromAuditJson(JSON.parse(text))).toEqual({
      amount: 10n ** 30n,
      at: '2026-01-02T03:04:05.000Z',
      list: [1n, 'a'],
    })
  })

  it('writes in one pass the same text as JSON of toAuditJson (bigints, dates, undefined, nesting)', () => {
    const values = [
      { amount: 5n, at: new Date(0), to: '0xab', gone: undefined, list: [1n, undefined, { n: -2n }] },
      [undefined, null, 0n, 'x', [new Date('2026-05-06T07:08:09.010Z')]],
      { usd: { value: '1.5', at: 3 }, effects: [{ asset: { tokenId: 7n }, amount: 10n ** 40n }] },
      12n,
      'text',
    ]
    for (const value of values) expect(auditJsonText(value)).toBe(JSON.stringify(toAuditJson(value)))
  })
})

describe('auditSigner', () => {
  it('signs with Ed25519 and verifies only the same message under the same key', () => {
    const signer = auditSigner(randomBytes(32))
    const other = auditSigner(randomBytes(32))
    const message = Buffer.from('checkpoint')
    const signature = signer.sign(message)
    expect(signer.publicKey).toMatch(/^[0-9a-f]{64}$/)
    expect(verifyAuditSignature(signer.publicKey, message, signature)).toBe(true)
    expect(verifyAuditSignature(signer.publicKey, Buffer.from('checkpoinT'), signature)).toBe(false)
    expect(verifyAuditSignature(other.publicKey, message, signature)).toBe(false)
    expect(verifyAuditSignature('zz', message, signature)).toBe(false)
  })

  it('derives the same public key from the same seed (the key file)', () => {
    const seed = randomBytes(32)
    expect(auditSigner(seed).publicKey).toBe(auditSigner(Uint8Array.from(seed)).publicKey)
  })
})
