import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto'

/** The service's audit key: signs checkpoints. `publicKey` is the raw Ed25519 key, hex (in /health). */
export type AuditSigner = { publicKey: string; sign(message: Uint8Array): string }

// PKCS#8 and SPKI wrappings of a raw Ed25519 key (RFC 8410), so node:crypto takes the 32 bytes as is.
const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex')
const spkiPrefix = Buffer.from('302a300506032b6570032100', 'hex')

/**
 * An Ed25519 signer from a 32-byte seed (the `audit.key` file, or `AGENTWALLET_AUDIT_KEY`).
 * @example const signer = auditSigner(randomBytes(32)); signer.sign(message)
 */
export function auditSigner(seed: Uint8Array): AuditSigner {
  if (seed.length !== 32) throw new TypeError('An audit key is 32 bytes')
  const key = createPrivateKey({ key: Buffer.concat([pkcs8Prefix, seed]), format: 'der', type: 'pkcs8' })
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' })
  return {
    publicKey: spki.subarray(spkiPrefix.length).toString('hex'),
    sign: (message) => sign(null, message, key).toString('hex'),
  }
}

/**
 * True when `signature` (hex) is `publicKey`'s (raw Ed25519, hex) over `message`; false for any
 * malformed key or signature.
 * @example verifyAuditSignature(publicKey, checkpointMessage(tenantId, upto, head), signature)
 */
export function verifyAuditSignature(publicKey: string, message: Uint8Array, signature: string): boolean {
  try {
    const key: KeyObject = createPublicKey({
      key: Buffer.concat([spkiPrefix, Buffer.from(publicKey, 'hex')]),
      format: 'der',
      type: 'spki',
    })
    return verify(null, message, key, Buffer.from(signature, 'hex'))
  } catch {
    return false
  }
}
