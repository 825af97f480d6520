import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { BaseError } from '../errors/baseError.js'

/** An AES-256-GCM ciphertext with its nonce and tag, base64 encoded for JSON storage. */
export type SealedBox = { iv: string; data: string; tag: string }

/**
 * Encrypts `plaintext` with a 32-byte key, binding `aad` (associated data) into the tag.
 * @example const box = aesGcmSeal(key, secret, Buffer.from(address))
 */
export const aesGcmSeal = (key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): SealedBox => {
  // A fresh random 96-bit nonce per message; keys here encrypt few messages, far below GCM's limits.
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(aad)
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return {
    iv: iv.toString('base64'),
    data: data.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  }
}

/**
 * Decrypts a box sealed by `aesGcmSeal`; rejects with `key_decryption_failed` when the key, the
 * associated data or any byte of the box differs.
 * @example const secret = aesGcmOpen(key, box, Buffer.from(address))
 */
export const aesGcmOpen = (key: Uint8Array, box: SealedBox, aad: Uint8Array): Uint8Array => {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(box.iv, 'base64'))
    decipher.setAAD(aad)
    decipher.setAuthTag(Buffer.from(box.tag, 'base64'))
    return new Uint8Array(Buffer.concat([decipher.update(Buffer.from(box.data, 'base64')), decipher.final()]))
  } catch (cause) {
    throw new BaseError('key_decryption_failed', 'A vault ciphertext failed authentication', { cause })
  }
}
