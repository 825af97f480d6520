import { createHash, randomBytes } from 'node:crypto'

/** Every generated key starts with this, so secret scanners and humans recognize it. */
export const apiKeyPrefix = 'aw_'

/**
 * SHA-256 of a raw API key, hex. A fast hash is right here (unlike passwords): generated keys carry
 * 256 random bits, so no dictionary or brute force can invert the hash, and auth stays one lookup.
 * @example const hash = hashApiKey('aw_…')
 */
export function hashApiKey(rawKey: string): string {
  return createHash('sha256').update(rawKey, 'utf8').digest('hex')
}

/**
 * A new raw API key: `aw_` + 32 random bytes in base64url (43 characters).
 * @example const key = generateApiKey() // 'aw_Qm9…'
 */
export function generateApiKey(): string {
  return `${apiKeyPrefix}${randomBytes(32).toString('base64url')}`
}

/** The displayable start of a key (`aw_` + 8 characters): enough to tell keys apart, useless to an attacker. */
export function displayPrefix(rawKey: string): string {
  return rawKey.slice(0, apiKeyPrefix.length + 8)
}
