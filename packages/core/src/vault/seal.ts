import { BaseError } from '../errors/baseError.js'
import { aesGcmOpen, aesGcmSeal, type SealedBox } from './aesGcm.js'
import { keyFingerprint } from './masterKey.js'

/**
 * A small secret sealed directly under a master key (no data key: it is one short value), with the
 * key's fingerprint so a wrong key is told apart from a tampered or misplaced ciphertext.
 */
export type SealedSecret = SealedBox & { version: 1; keyId: string }

/**
 * Encrypts `plaintext` under `key` with AES-256-GCM (a fresh random nonce each time), binding
 * `context` as associated data: the ciphertext opens only for the same context (a record id, say).
 * @example const sealed = seal(masterKey, Buffer.from(secret), `webhook-secret:${id}`)
 */
export const seal = (key: Uint8Array, plaintext: Uint8Array, context: string): SealedSecret => ({
  version: 1,
  keyId: keyFingerprint(key),
  ...aesGcmSeal(key, plaintext, Buffer.from(context, 'utf8')),
})

/**
 * Opens what `seal` produced: `master_key_mismatch` when it was sealed under another key,
 * `key_decryption_failed` when `context` differs (a ciphertext moved to another record) or a byte changed.
 * @example const secret = Buffer.from(unseal(masterKey, sealed, `webhook-secret:${id}`)).toString()
 */
export const unseal = (key: Uint8Array, sealed: SealedSecret, context: string): Uint8Array => {
  if (sealed.keyId !== keyFingerprint(key)) {
    throw new BaseError(
      'master_key_mismatch',
      'The master key does not match the key this secret was sealed with',
      {
        details: { context, expectedKeyId: sealed.keyId },
      },
    )
  }
  return aesGcmOpen(key, sealed, Buffer.from(context, 'utf8'))
}
