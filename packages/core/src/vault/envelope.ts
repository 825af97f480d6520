import { randomBytes } from 'node:crypto'
import { BaseError } from '../errors/baseError.js'
import { aesGcmOpen, aesGcmSeal } from './aesGcm.js'
import type { EnvelopeKeyRecord } from './localKeyRecord.js'
import { keyFingerprint } from './masterKey.js'

const aadFor = (address: string) => Buffer.from(address.toLowerCase(), 'utf8')

/**
 * Seals a private key for `address` under a fresh random data key wrapped by `wrappingKey`.
 * @example const record = sealEnvelope(keyBytes, masterKey, address)
 */
export const sealEnvelope = (
  privateKey: Uint8Array,
  wrappingKey: Uint8Array,
  address: string,
): EnvelopeKeyRecord => {
  const dataKey = randomBytes(32)
  try {
    const aad = aadFor(address)
    return {
      version: 1,
      kind: 'envelope',
      address: address.toLowerCase(),
      keyId: keyFingerprint(wrappingKey),
      wrappedDataKey: aesGcmSeal(wrappingKey, dataKey, aad),
      encryptedKey: aesGcmSeal(dataKey, privateKey, aad),
    }
  } finally {
    dataKey.fill(0)
  }
}

/**
 * Opens the envelope stored for `address`: `master_key_mismatch` when it was sealed under another
 * wrapping key, `key_decryption_failed` when it does not belong to `address` or was altered.
 * @example const keyBytes = openEnvelope(record, masterKey, address)
 */
export const openEnvelope = (
  record: EnvelopeKeyRecord,
  wrappingKey: Uint8Array,
  address: string,
): Uint8Array => {
  if (record.keyId !== keyFingerprint(wrappingKey)) {
    throw new BaseError(
      'master_key_mismatch',
      'The vault key does not match the key this wallet was sealed with',
      {
        details: { address: address.toLowerCase(), expectedKeyId: record.keyId },
      },
    )
  }
  const aad = aadFor(address)
  const dataKey = aesGcmOpen(wrappingKey, record.wrappedDataKey, aad)
  try {
    return aesGcmOpen(dataKey, record.encryptedKey, aad)
  } finally {
    dataKey.fill(0)
  }
}

/**
 * The same envelope with its data key re-wrapped under `to`, after checking that the whole record
 * opens under `from` (the private key itself is not re-encrypted: only the wrapping changes).
 * Rejects like `openEnvelope` when it does not open under `from`.
 * @example const rotated = rewrapEnvelope(record, oldKey, newKey, address)
 */
export const rewrapEnvelope = (
  record: EnvelopeKeyRecord,
  from: Uint8Array,
  to: Uint8Array,
  address: string,
): EnvelopeKeyRecord => {
  openEnvelope(record, from, address).fill(0)
  const aad = aadFor(address)
  const dataKey = aesGcmOpen(from, record.wrappedDataKey, aad)
  try {
    return { ...record, keyId: keyFingerprint(to), wrappedDataKey: aesGcmSeal(to, dataKey, aad) }
  } finally {
    dataKey.fill(0)
  }
}
