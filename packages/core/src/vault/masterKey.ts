import { createHmac } from 'node:crypto'
import { BaseError } from '../errors/baseError.js'

/** The environment variable the composition root may read the master key from. */
export const masterKeyEnvVar = 'AGENTWALLET_MASTER_KEY'

/**
 * Parses a 32-byte master key given as 64 hex characters (optionally 0x-prefixed) or base64.
 * @example const masterKey = parseMasterKey(process.env.AGENTWALLET_MASTER_KEY!)
 */
export const parseMasterKey = (value: string | Uint8Array): Uint8Array => {
  if (value instanceof Uint8Array) {
    if (value.length === 32) return new Uint8Array(value)
  } else {
    const text = value.trim()
    const hex = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text
    if (/^[0-9a-fA-F]{64}$/.test(hex)) return new Uint8Array(Buffer.from(hex, 'hex'))
    if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
      const bytes = Buffer.from(text, 'base64')
      if (bytes.length === 32) return new Uint8Array(bytes)
    }
  }
  // The value itself never goes into the error: it is (almost) a secret.
  throw new BaseError('validation_failed', 'The master key must be 32 bytes, as 64 hex characters or base64')
}

/**
 * Reads the master key from `AGENTWALLET_MASTER_KEY`, for the composition root only; undefined when unset.
 * @example const masterKey = masterKeyFromEnv(process.env) ?? (await loadOrCreateMasterKey({ dataDir }))
 */
export const masterKeyFromEnv = (env: Record<string, string | undefined>): Uint8Array | undefined => {
  const value = env[masterKeyEnvVar]
  return value === undefined || value.trim() === '' ? undefined : parseMasterKey(value)
}

/**
 * A short public fingerprint of a wrapping key, stored beside ciphertexts so a wrong key is
 * recognized as such instead of surfacing as a decryption failure.
 * @example keyFingerprint(masterKey) // 'mk1:3f9a…'
 */
export const keyFingerprint = (key: Uint8Array): string =>
  `mk1:${createHmac('sha256', key).update('agentwallet/key-fingerprint/v1').digest('hex').slice(0, 32)}`
