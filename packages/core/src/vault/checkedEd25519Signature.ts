import { createPublicKey, verify } from 'node:crypto'
import { type CheckedSignatureParameters, firstValidSignature } from './checkedSignature.js'
import { ed25519PublicKey } from './ed25519Key.js'

export type CheckedEd25519SignatureParameters = Pick<
  CheckedSignatureParameters,
  'signRaw' | 'maxAttempts' | 'onBadSignature'
> & {
  message: Uint8Array
  /** The base58 address (public key) the signature must verify under. */
  address: string
}

/**
 * An Ed25519 signature made by an HSM or a KMS, verified before use (by OpenSSL, through node:crypto)
 * under the wallet's public key: one that does not verify is retried, up to a bound, then refused
 * with `vault_error`, as secp256k1 ones are (`checkedSignature`).
 * @example const signature = await checkedEd25519Signature({ message, address, signRaw, maxAttempts: 3, onBadSignature })
 */
export async function checkedEd25519Signature(
  parameters: CheckedEd25519SignatureParameters,
): Promise<Uint8Array> {
  const { message, address } = parameters
  const x = Buffer.from(ed25519PublicKey(address)).toString('base64url')
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })
  return firstValidSignature(parameters, (raw) =>
    raw.length === 64 && verify(null, message, publicKey, raw) ? raw : undefined,
  )
}
