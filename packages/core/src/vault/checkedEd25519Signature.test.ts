import { generateKeyPairSync, sign } from 'node:crypto'
import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { checkedEd25519Signature } from './checkedEd25519Signature.js'

const { privateKey, publicKey } = generateKeyPairSync('ed25519')
const address = base58.encode(Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url'))
const message = new TextEncoder().encode('checked before use')
const good = () => new Uint8Array(sign(null, message, privateKey))
const flipped = () => {
  const signature = good()
  signature[10] = signature[10]! ^ 1
  return signature
}

describe('checkedEd25519Signature', () => {
  it('passes a signature that verifies under the wallet, counting nothing', async () => {
    let bad = 0
    const signature = await checkedEd25519Signature({
      message,
      address,
      signRaw: async () => good(),
      maxAttempts: 1,
      onBadSignature: () => bad++,
    })
    expect(Buffer.from(signature).equals(Buffer.from(good()))).toBe(true)
    expect(bad).toBe(0)
  })

  it('retries a signature that does not verify (altered, short) and counts it', async () => {
    const answers = [flipped(), good().subarray(0, 63), good()]
    let bad = 0
    const signature = await checkedEd25519Signature({
      message,
      address,
      signRaw: async () => answers.shift()!,
      maxAttempts: 3,
      onBadSignature: () => bad++,
    })
    expect(Buffer.from(signature).equals(Buffer.from(good()))).toBe(true)
    expect(bad).toBe(2)
  })

  it('refuses with vault_error once the attempts are spent', async () => {
    let bad = 0
    await expect(
      checkedEd25519Signature({
        message,
        address,
        signRaw: async () => flipped(),
        maxAttempts: 2,
        onBadSignature: () => bad++,
      }),
    ).rejects.toMatchObject({ code: 'vault_error', details: { attempts: 2 } })
    expect(bad).toBe(2)
  })
})
