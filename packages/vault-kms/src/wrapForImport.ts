import { constants, publicEncrypt } from 'node:crypto'
import type { Hex } from 'viem'
import { pkcs8FromPrivateKey } from './pkcs8FromPrivateKey.js'

/**
 * The private key as PKCS#8, encrypted under a KMS's RSA wrapping key with OAEP and SHA-256 (AWS
 * `RSAES_OAEP_SHA_256`, Google `RSA_OAEP_3072_SHA256`); the plaintext buffer is zeroed after.
 * @example const wrapped = wrapForImport(privateKey, importJob.publicKey.pem)
 */
export function wrapForImport(privateKey: Hex, wrappingKey: string | Uint8Array): Buffer {
  const plaintext = pkcs8FromPrivateKey(privateKey)
  try {
    const key =
      typeof wrappingKey === 'string'
        ? wrappingKey
        : { key: Buffer.from(wrappingKey), format: 'der' as const, type: 'spki' as const }
    return publicEncrypt(
      {
        ...(typeof key === 'string' ? { key } : key),
        padding: constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: 'sha256',
      },
      plaintext,
    )
  } finally {
    plaintext.fill(0)
  }
}
