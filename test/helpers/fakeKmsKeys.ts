import {
  constants,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  privateDecrypt,
  sign,
} from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { secp256k1 } from '@noble/curves/secp256k1'

/**
 * What the fake KMS services share: real secp256k1 keys (@noble/curves), their public keys as a KMS
 * hands them out (SubjectPublicKeyInfo, DER or PEM), DER signatures of a digest as a KMS makes them
 * (high s about half the time: no KMS normalises s), an RSA wrapping key for imports, and the
 * loopback HTTP server. Test code.
 */
export type FakeSecp256k1Key = { privateKey: Uint8Array }

export const newFakeKey = (): FakeSecp256k1Key => ({ privateKey: secp256k1.utils.randomPrivateKey() })

/** An Ed25519 key of the fakes' (AWS ECC_NIST_EDWARDS25519, Google EC_SIGN_ED25519), held by OpenSSL. */
export type FakeEd25519Key = { ed25519: KeyObject }
export const newFakeEd25519Key = (): FakeEd25519Key => ({
  ed25519: generateKeyPairSync('ed25519').privateKey,
})

/** The 64-byte pure Ed25519 signature of `message`; `corrupt` signs another message (it does not verify). */
export function ed25519Signature(key: FakeEd25519Key, message: Uint8Array, corrupt = false): Uint8Array {
  const signed = Buffer.from(message)
  if (corrupt) signed[0] = (signed[0] ?? 0) ^ 0xff
  return new Uint8Array(sign(null, corrupt && signed.length === 0 ? Buffer.from([1]) : signed, key.ed25519))
}

/** The key's public half as a Node KeyObject (exported as SPKI DER for AWS, PEM for Google). */
export function publicKeyObject(key: FakeSecp256k1Key | FakeEd25519Key): KeyObject {
  if ('ed25519' in key) return createPublicKey(key.ed25519)
  const point = secp256k1.getPublicKey(key.privateKey, false)
  const coordinate = (from: number) => Buffer.from(point.slice(from, from + 32)).toString('base64url')
  return createPublicKey({
    key: { kty: 'EC', crv: 'secp256k1', x: coordinate(1), y: coordinate(33) },
    format: 'jwk',
  })
}

/** A DER ECDSA signature of `digest`; `corrupt` signs another digest (a signature that recovers elsewhere). */
export function derSignature(key: FakeSecp256k1Key, digest: Uint8Array, corrupt = false): Uint8Array {
  const signed = Uint8Array.from(digest)
  if (corrupt) signed[0] = signed[0]! ^ 0xff
  return secp256k1.sign(signed, key.privateKey, { lowS: false }).toDERRawBytes()
}

/** An RSA wrapping key, and how the KMS side unwraps an OAEP-SHA-256 PKCS#8 secp256k1 key with it. */
export function rsaWrappingKey(modulusLength: number) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength })
  return {
    publicKey,
    /** The secp256k1 key inside the wrapped PKCS#8 (throws when it is not one). */
    unwrap(wrapped: Buffer): FakeSecp256k1Key {
      const pkcs8 = privateDecrypt(
        { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        wrapped,
      )
      const jwk = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' })
      if (jwk.crv !== 'secp256k1' || !jwk.d) throw new Error('not a secp256k1 key')
      return { privateKey: Uint8Array.from(Buffer.from(jwk.d, 'base64url')) }
    },
  }
}

export type FakeHttpReply = { status: number; headers?: Record<string, string>; body: unknown }

/** A JSON-over-HTTP server on 127.0.0.1 and a free port; `handle` sees the raw body. */
export async function startFakeHttp(
  handle: (request: IncomingMessage, body: Buffer) => FakeHttpReply | Promise<FakeHttpReply>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', async () => {
      const reply = await Promise.resolve()
        .then(() => handle(request, Buffer.concat(chunks)))
        .catch((error: unknown): FakeHttpReply => ({ status: 500, body: { message: String(error) } }))
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
      response.end(JSON.stringify(reply.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
