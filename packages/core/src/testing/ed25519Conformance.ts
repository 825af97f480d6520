import { createPrivateKey, createPublicKey, randomBytes, verify } from 'node:crypto'
import { base58 } from '@scure/base'
import type { Ed25519Keys, KeyVault } from '../vault/types.js'
import type { TestRunner } from './testRunner.js'

// RFC 8032 section 7.1, TEST 2: a seed, its public key, and the signature of the one-byte message 0x72.
const rfcSeed = '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb'
const rfcPublicKey = '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c'
const rfcSignature =
  '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const fromHex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'))

/**
 * Ed25519 done by OpenSSL (node:crypto), not by the vault's code: the independent verifier.
 * A PKCS#8 Ed25519 private key is this fixed DER prefix and the 32-byte seed (RFC 8410).
 */
const pkcs8Prefix = fromHex('302e020100300506032b657004220420')
const openSsl = {
  publicKey(seed: Uint8Array): Uint8Array {
    const key = createPrivateKey({ key: Buffer.concat([pkcs8Prefix, seed]), format: 'der', type: 'pkcs8' })
    return new Uint8Array(Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url'))
  },
  verify(address: string, message: Uint8Array, signature: Uint8Array): boolean {
    const x = Buffer.from(base58.decode(address)).toString('base64url')
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })
    return verify(null, message, key, signature)
  },
}

/** A fresh key in the Solana CLI's 64-byte form (seed ‖ public key), derived by OpenSSL. */
const freshSecretKey = () => {
  const seed = new Uint8Array(randomBytes(32))
  return {
    seed,
    publicKey: openSsl.publicKey(seed),
    secretKey: new Uint8Array([...seed, ...openSsl.publicKey(seed)]),
  }
}

/**
 * Registers the Ed25519 cases of the KeyVault conformance suite: every vault that declares `ed25519`
 * must pass them (a vault without it must be given a skip reason).
 */
export const runEd25519Conformance = (runner: TestRunner, create: () => Promise<KeyVault>) => {
  const { it, expect } = runner
  const keysOf = async (): Promise<Ed25519Keys> => {
    const vault = await create()
    expect(typeof vault.ed25519).toBe('object')
    return vault.ed25519!
  }

  runner.describe('Ed25519 keys', () => {
    it('creates distinct keys whose signatures an independent verifier (OpenSSL) accepts', async () => {
      const keys = await keysOf()
      const a = await keys.createKey()
      const b = await keys.createKey()
      expect(base58.decode(a)).toHaveLength(32)
      expect(a === b).toBe(false)
      expect(await keys.hasKey(a)).toBe(true)
      const signer = await keys.getSigner(a)
      expect(signer.address).toBe(a)
      const message = new TextEncoder().encode('agentwallet ed25519 conformance')
      const signature = await signer.signBytes(message)
      expect(signature).toHaveLength(64)
      expect(openSsl.verify(a, message, signature)).toBe(true)
      // The verifier can fail: another message, or another key, does not verify.
      expect(openSsl.verify(a, new TextEncoder().encode('another message'), signature)).toBe(false)
      expect(openSsl.verify(b, message, signature)).toBe(false)
    })

    it('signs deterministically (RFC 8032): the RFC test vector, and one signature per message', async () => {
      const keys = await keysOf()
      const address = await keys.importKey(fromHex(rfcSeed))
      expect(hex(base58.decode(address))).toBe(rfcPublicKey)
      const signer = await keys.getSigner(address)
      expect(hex(await signer.signBytes(fromHex('72')))).toBe(rfcSignature)
      const message = new Uint8Array(randomBytes(200))
      const first = await signer.signBytes(message)
      expect(hex(await signer.signBytes(message))).toBe(hex(first))
      expect(hex(await signer.signBytes(new Uint8Array(randomBytes(200)))) === hex(first)).toBe(false)
    })

    it('imports a seed and the 64-byte secret key as the same address, and again as it', async () => {
      const keys = await keysOf()
      const { seed, publicKey, secretKey } = freshSecretKey()
      const address = await keys.importKey(secretKey)
      expect(address).toBe(base58.encode(publicKey))
      expect(await keys.importKey(seed)).toBe(address)
      expect(await keys.importKey(secretKey)).toBe(address)
      expect(await keys.hasKey(address)).toBe(true)
      const message = new Uint8Array(randomBytes(64))
      expect(openSsl.verify(address, message, await (await keys.getSigner(address)).signBytes(message))).toBe(
        true,
      )
      const other = freshSecretKey()
      const seedAddress = await keys.importKey(other.seed)
      expect(seedAddress).toBe(base58.encode(other.publicKey))
      expect(await keys.importKey(other.secretKey)).toBe(seedAddress)
    })

    it('refuses a secret key whose public half is not its seed, or of another length, with validation_failed, echoing nothing', async () => {
      const keys = await keysOf()
      const { seed } = freshSecretKey()
      const mismatched = new Uint8Array([...seed, ...freshSecretKey().publicKey])
      const invalid = [mismatched, seed.subarray(0, 31), new Uint8Array(33), new Uint8Array(65)]
      for (const value of invalid) {
        const error = await keys.importKey(value).then(
          () => undefined,
          (caught: unknown) => caught,
        )
        expect(error).toMatchObject({ code: 'validation_failed' })
        const text = JSON.stringify(error, Object.getOwnPropertyNames(error)) + String(error)
        expect(text.includes(hex(seed))).toBe(false)
        expect(text.includes(base58.encode(mismatched))).toBe(false)
      }
      expect(await keys.hasKey(base58.encode(mismatched.subarray(32)))).toBe(false)
    })

    it('rejects an unknown address with not_found and a malformed one with validation_failed', async () => {
      const keys = await keysOf()
      const unknown = base58.encode(freshSecretKey().publicKey)
      expect(await keys.hasKey(unknown)).toBe(false)
      await expect(keys.getSigner(unknown)).rejects.toMatchObject({ code: 'not_found' })
      await expect(keys.getSigner('not-base58-0OIl')).rejects.toMatchObject({ code: 'validation_failed' })
      await expect(keys.getSigner(base58.encode(new Uint8Array(31).fill(7)))).rejects.toMatchObject({
        code: 'validation_failed',
      })
    })

    it('exports the 64-byte secret key when the vault declares exportable, and only then', async () => {
      const vault = await create()
      const keys = vault.ed25519!
      if (!vault.capabilities.exportable) {
        expect(keys.exportKey).toBeUndefined()
        return
      }
      const address = await keys.createKey()
      const exported = await keys.exportKey!(address)
      expect(exported).toHaveLength(64)
      expect(hex(openSsl.publicKey(exported.subarray(0, 32)))).toBe(hex(base58.decode(address)))
      expect(hex(exported.subarray(32))).toBe(hex(base58.decode(address)))
      const unknown = base58.encode(freshSecretKey().publicKey)
      await expect(keys.exportKey!(unknown)).rejects.toMatchObject({ code: 'not_found' })
    })
  })
}
