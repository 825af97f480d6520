import { type Address, bytesToHex, type Hex, recoverAddress, serializeSignature } from 'viem'
import { BaseError } from '../errors/baseError.js'

/** The order n of secp256k1's group: an s above n/2 has the low twin n - s (EIP-2). */
const curveOrder = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

export type CheckedSignatureParameters = {
  hash: Hex
  /** The wallet the signature must recover to. */
  address: Address
  /** One raw ECDSA signature from the HSM or KMS: r‖s, 32 bytes each. */
  signRaw: () => Promise<Uint8Array>
  /** Tries before giving up on a token that keeps signing wrong. */
  maxAttempts: number
  /** Called for each signature that did not recover to `address` (and was retried or refused). */
  onBadSignature: () => void
}

/**
 * A signature made by an HSM or a KMS, made Ethereum-ready and proven before use: low-s, with the recovery
 * id under which it recovers to the wallet. A signature that recovers to no one's key but the
 * wallet's is retried (SoftHSMv2#901 reports invalid secp256k1 signatures), up to a bound.
 * @example const signature = await checkedSignature({ hash, address, signRaw, maxAttempts: 3, onBadSignature })
 */
export async function checkedSignature(parameters: CheckedSignatureParameters): Promise<Hex> {
  const { hash, address } = parameters
  return firstValidSignature(parameters, (raw) => recoverable(hash, address, raw))
}

/**
 * Asks `signRaw` for signatures until `valid` makes one usable, counting each that is not; after
 * `maxAttempts` it refuses with `vault_error`. Shared by the secp256k1 and Ed25519 checks.
 */
export async function firstValidSignature<T>(
  parameters: Pick<CheckedSignatureParameters, 'signRaw' | 'maxAttempts' | 'onBadSignature'> & {
    address: string
  },
  valid: (raw: Uint8Array) => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const { address, signRaw, maxAttempts, onBadSignature } = parameters
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const signature = await valid(await signRaw())
    if (signature !== undefined) return signature
    onBadSignature()
  }
  throw new BaseError('vault_error', 'The vault kept returning signatures that do not verify', {
    details: { address, attempts: maxAttempts },
  })
}

async function recoverable(hash: Hex, address: Address, raw: Uint8Array): Promise<Hex | undefined> {
  if (raw.length !== 64) return undefined
  const r = BigInt(bytesToHex(raw.subarray(0, 32)))
  const highS = BigInt(bytesToHex(raw.subarray(32)))
  if (r === 0n || highS === 0n || r >= curveOrder || highS >= curveOrder) return undefined
  const s = highS > curveOrder / 2n ? curveOrder - highS : highS
  for (const yParity of [0, 1]) {
    const signature = serializeSignature({ r: toWord(r), s: toWord(s), yParity })
    const recovered = await recoverAddress({ hash, signature }).catch(() => undefined)
    if (recovered?.toLowerCase() === address.toLowerCase()) return signature
  }
  return undefined
}

const toWord = (value: bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`
