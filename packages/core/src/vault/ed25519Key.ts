import { ed25519 } from '@noble/curves/ed25519'
import { base58 } from '@scure/base'
import { BaseError } from '../errors/baseError.js'
import type { Ed25519Signer } from './types.js'

/** An Ed25519 key split into its 32-byte seed (the secret) and its public key with its base58 address. */
export type Ed25519KeyPair = { seed: Uint8Array; publicKey: Uint8Array; address: string }

/**
 * Checks an Ed25519 secret (a 32-byte seed, or the 64-byte seed ‖ public key the Solana CLI and
 * wallets export, whose public half must match) and returns its seed, public key and base58 address.
 * The secret never goes into an error.
 * @example const { seed, address } = ed25519KeyPair(secretKey)
 */
export const ed25519KeyPair = (secretKey: Uint8Array): Ed25519KeyPair => {
  if (!(secretKey instanceof Uint8Array) || (secretKey.length !== 32 && secretKey.length !== 64)) {
    throw new BaseError(
      'validation_failed',
      'Invalid Ed25519 secret key: expected a 32-byte seed or a 64-byte secret key',
    )
  }
  const seed = secretKey.slice(0, 32)
  const publicKey = ed25519.getPublicKey(seed)
  if (secretKey.length === 64 && !equalBytes(publicKey, secretKey.subarray(32))) {
    seed.fill(0)
    throw new BaseError(
      'validation_failed',
      'Invalid Ed25519 secret key: its public half does not match its seed',
    )
  }
  return { seed, publicKey, address: ed25519Address(publicKey) }
}

/**
 * The base58 address (a Solana address) of a 32-byte Ed25519 public key.
 * @example ed25519Address(publicKey) // '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
 */
export const ed25519Address = (publicKey: Uint8Array): string => base58.encode(publicKey)

/** A fresh random Ed25519 key pair. */
export const randomEd25519KeyPair = (): Ed25519KeyPair => {
  const seed = ed25519.utils.randomPrivateKey()
  const pair = ed25519KeyPair(seed)
  seed.fill(0)
  return pair
}

/**
 * The public key of a base58 Ed25519 address (a Solana address); `validation_failed` when it is not
 * base58 of 32 bytes.
 * @example ed25519PublicKey('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM') // Uint8Array(32)
 */
export const ed25519PublicKey = (address: string): Uint8Array => {
  let bytes: Uint8Array | undefined
  try {
    bytes = typeof address === 'string' ? base58.decode(address) : undefined
  } catch {
    bytes = undefined
  }
  if (bytes?.length !== 32) {
    throw new BaseError('validation_failed', 'Invalid Ed25519 address: expected base58 of 32 bytes', {
      details: { address: typeof address === 'string' ? address.slice(0, 64) : typeof address },
    })
  }
  return bytes
}

/**
 * The id a vault files an Ed25519 key under: `ed25519:` and the public key in hex. Lowercase (stores
 * may fold case, base58 may not be folded) and apart from every `0x` secp256k1 address.
 * @example ed25519KeyId(address) // 'ed25519:7f3c…'
 */
export const ed25519KeyId = (address: string): string =>
  `ed25519:${Buffer.from(ed25519PublicKey(address)).toString('hex')}`

/** The 64-byte secret key (seed ‖ public key) the Solana CLI and wallets use. */
export const ed25519SecretKey = (seed: Uint8Array, publicKey: Uint8Array): Uint8Array => {
  const secretKey = new Uint8Array(64)
  secretKey.set(seed, 0)
  secretKey.set(publicKey, 32)
  return secretKey
}

/**
 * An Ed25519 signer whose seed is fetched for each signature and wiped after it, so no long-lived
 * object holds the key between signatures.
 * @example const signer = ed25519Signer(address, () => openSeed(address)); await signer.signBytes(message)
 */
export const ed25519Signer = (address: string, seedOf: () => Promise<Uint8Array>): Ed25519Signer => ({
  address,
  async signBytes(message) {
    const seed = await seedOf()
    try {
      return ed25519.sign(message, seed)
    } finally {
      seed.fill(0)
    }
  },
})

const equalBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, index) => byte === b[index])
