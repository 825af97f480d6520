import { base58 } from '@scure/base'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { ed25519KeyPair, ed25519SecretKey } from './ed25519Key.js'

export type ParseSolanaSecretKeyReturnType = {
  /** The 64-byte secret key (seed ‖ public key), ready for `vault.ed25519.importKey`. */
  secretKey: Uint8Array
  /** Its base58 public key: the Solana address the import will give. */
  address: string
}

/** What a text holding a Solana key can be, by shape; said in errors (never the text itself). */
type Shape = 'json_array' | 'hex' | 'base58' | 'unrecognized'

const formats =
  'expected the Solana CLI keypair file (a JSON array of 64 numbers), base58 of the 64-byte secret key, or base58 or hex of the 32-byte seed'

/**
 * Reads a Solana secret key in the forms the ecosystem exports: the Solana CLI keypair file
 * (`~/.config/solana/id.json`, a JSON array of 64 numbers), base58 of the 64-byte secret key
 * (Phantom, Solflare, Backpack), or base58 or hex of the 32-byte seed. A 64-byte key whose public half
 * does not match its seed is refused. Errors (`validation_failed`) name the shape, never the secret.
 * @example const { secretKey, address } = parseSolanaSecretKey(await readFile('id.json', 'utf8'))
 */
export function parseSolanaSecretKey(text: string): ParseSolanaSecretKeyReturnType {
  const trimmed = typeof text === 'string' ? text.trim() : ''
  const shape = shapeOf(trimmed)
  const bytes = bytesOf(trimmed, shape)
  // A JSON array is the CLI's file, always 64 numbers: 32 would be a truncated one, not a seed.
  const lengths = shape === 'json_array' ? [64] : [32, 64]
  if (!bytes || !lengths.includes(bytes.length)) {
    bytes?.fill(0)
    throw new BaseError('validation_failed', `Invalid Solana secret key: ${formats}`, {
      details: { shape, ...(bytes ? { length: bytes.length } : {}) },
    })
  }
  try {
    const { seed, publicKey, address } = ed25519KeyPair(bytes)
    const secretKey = ed25519SecretKey(seed, publicKey)
    seed.fill(0)
    return { secretKey, address }
  } catch (error) {
    // The one refusal left: a 64-byte key whose public half is not its seed's.
    if (!isAgentWalletError(error, 'validation_failed')) throw error
    throw new BaseError('validation_failed', error.shortMessage, {
      details: { shape, length: 64, reason: 'public_key_mismatch' },
    })
  } finally {
    bytes.fill(0)
  }
}

const shapeOf = (text: string): Shape => {
  if (text.startsWith('[')) return 'json_array'
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(text)) return 'hex'
  if (/^[1-9A-HJ-NP-Za-km-z]+$/.test(text)) return 'base58'
  return 'unrecognized'
}

const bytesOf = (text: string, shape: Shape): Uint8Array | undefined => {
  if (shape === 'hex') return new Uint8Array(Buffer.from(text.replace(/^0x/, ''), 'hex'))
  if (shape === 'base58') return base58.decode(text)
  if (shape !== 'json_array') return undefined
  let values: unknown
  try {
    values = JSON.parse(text)
  } catch {
    return undefined
  }
  const isByte = (value: unknown) =>
    Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255
  if (!Array.isArray(values) || !values.every(isByte)) return undefined
  return new Uint8Array(values as number[])
}
