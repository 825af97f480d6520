import { createPublicKey } from 'node:crypto'
import { BaseError } from '@agentwallet/core'
import { bytesToHex, concat, type Hex } from 'viem'

/**
 * The uncompressed secp256k1 public key (0x04‖x‖y) of a SubjectPublicKeyInfo, DER (AWS) or PEM (Google).
 * @example publicKeyFromSpki(getPublicKeyOutput.PublicKey)
 */
export function publicKeyFromSpki(spki: Uint8Array | string): Hex {
  const jwk = jwkOf(spki)
  if (jwk.kty !== 'EC' || jwk.crv !== 'secp256k1' || !jwk.x || !jwk.y) {
    throw new BaseError('vault_error', 'The KMS key is not a secp256k1 key', {
      details: { keyType: jwk.kty, curve: jwk.crv },
    })
  }
  return concat([
    '0x04',
    bytesToHex(Buffer.from(jwk.x, 'base64url')),
    bytesToHex(Buffer.from(jwk.y, 'base64url')),
  ])
}

/**
 * The 32-byte Ed25519 public key of a SubjectPublicKeyInfo (RFC 8410), DER (AWS) or PEM (Google).
 * @example ed25519PublicKeyFromSpki(getPublicKeyOutput.PublicKey)
 */
export function ed25519PublicKeyFromSpki(spki: Uint8Array | string): Uint8Array {
  const jwk = jwkOf(spki)
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x) {
    throw new BaseError('vault_error', 'The KMS key is not an Ed25519 key', {
      details: { keyType: jwk.kty, curve: jwk.crv },
    })
  }
  return new Uint8Array(Buffer.from(jwk.x, 'base64url'))
}

const jwkOf = (spki: Uint8Array | string) =>
  (typeof spki === 'string'
    ? createPublicKey(spki)
    : createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' })
  ).export({ format: 'jwk' })
