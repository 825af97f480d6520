import { type Address, getBase58Encoder, getBase64Encoder, isAddress } from '@solana/kit'
import { invalidParam } from './solanaRpcError.js'

/** The parameter at `index` as an address, or an invalid-params error. */
export function addressParam(params: readonly unknown[], index: number): Address {
  const value = params[index]
  if (typeof value !== 'string' || !isAddress(value)) throw invalidParam(`Invalid address: ${String(value)}`)
  return value
}

/** The config object at `index` (`{}` when absent). */
export function configParam<T extends object>(params: readonly unknown[], index: number): Partial<T> {
  const value = params[index]
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParam('config must be an object')
  return value as Partial<T>
}

/** A non-negative integer parameter (JSON numbers arrive as bigints). */
export function integerParam(params: readonly unknown[], index: number): bigint {
  const value = params[index]
  if ((typeof value === 'bigint' || typeof value === 'number') && BigInt(value) >= 0n) return BigInt(value)
  throw invalidParam(`expected a non-negative integer, got ${String(value)}`)
}

/** A wire transaction or message, base58 (the default) or base64. */
export function bytesParam(params: readonly unknown[], index: number, encoding = 'base58'): Uint8Array {
  const value = params[index]
  if (typeof value !== 'string') throw invalidParam('expected an encoded transaction')
  try {
    if (encoding === 'base64') return new Uint8Array(getBase64Encoder().encode(value))
    if (encoding === 'base58') return new Uint8Array(getBase58Encoder().encode(value))
  } catch {
    throw invalidParam(`invalid ${encoding}`)
  }
  throw invalidParam(`unsupported encoding: ${encoding}. Supported encodings: base58, base64`)
}
