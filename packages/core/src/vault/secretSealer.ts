import { parseMasterKey } from './masterKey.js'
import { type SealedSecret, seal, unseal } from './seal.js'

/** Seals and opens small text secrets at rest (webhook signing secrets) with the master key. */
export type SecretSealer = {
  seal(plaintext: string, context: string): SealedSecret
  /** Rejects with `master_key_mismatch` or `key_decryption_failed`, never returns garbage. */
  open(sealed: SealedSecret, context: string): string
}

/**
 * A sealer holding the master key in a closure, so the context carries no raw key. Each call is
 * one AES-GCM operation (no KDF), cheap enough to run per delivery without a plaintext cache.
 * @example const secrets = secretSealer(masterKey); const sealed = secrets.seal(secret, `webhook-secret:${id}`)
 */
export const secretSealer = (masterKey: Uint8Array | string): SecretSealer => {
  const key = parseMasterKey(masterKey)
  return {
    seal: (plaintext, context) => seal(key, Buffer.from(plaintext, 'utf8'), context),
    open: (sealed, context) => Buffer.from(unseal(key, sealed, context)).toString('utf8'),
  }
}
