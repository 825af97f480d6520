import { BaseError } from '@agentwallet/core'
import type * as Pkcs11js from 'pkcs11js'
import { pkcs11CodeOf, pkcs11Codes } from './pkcs11Codes.js'
import type { TokenSession } from './tokenConnection.js'
import { findPrivateKeyById } from './tokenKeys.js'

/** A private key's handle by CKA_ID, looked up once per session generation. */
export type KeyHandles = (session: TokenSession, id: Buffer) => Pkcs11js.Handle | undefined

/** A cache of private key handles: a handle from an older session generation is looked up again. */
export function keyHandles(): KeyHandles {
  const handles = new Map<string, { generation: number; handle: Pkcs11js.Handle }>()
  return (session, id) => {
    const key = id.toString('hex')
    const known = handles.get(key)
    if (known?.generation === session.generation) return known.handle
    const handle = findPrivateKeyById(session, id)
    if (handle) handles.set(key, { generation: session.generation, handle })
    return handle
  }
}

/**
 * One import per key at a time: two imports of one key at once would make two objects under one
 * CKA_ID, so the second waits for the first and gets its answer.
 */
export function oneImportPerKey<T>(): (key: string, run: () => Promise<T>) => Promise<T> {
  const importing = new Map<string, Promise<T>>()
  return async (key, run) => {
    const pending = importing.get(key) ?? run()
    importing.set(key, pending)
    try {
      return await pending
    } finally {
      if (importing.get(key) === pending) importing.delete(key)
    }
  }
}

/** Return values of a token that does not take keys from outside. */
const importRefused: ReadonlySet<number> = new Set([
  pkcs11Codes.CKR_ATTRIBUTE_VALUE_INVALID,
  pkcs11Codes.CKR_FUNCTION_NOT_SUPPORTED,
  pkcs11Codes.CKR_TEMPLATE_INCONSISTENT,
  pkcs11Codes.CKR_TOKEN_WRITE_PROTECTED,
  0x10, // CKR_ATTRIBUTE_READ_ONLY
  0x12, // CKR_ATTRIBUTE_TYPE_INVALID
])

/** Runs an import on the token; a token that does not take keys from outside is `not_implemented`. */
export async function importOnToken(run: () => Promise<void>): Promise<void> {
  try {
    await run()
  } catch (error) {
    const code = pkcs11CodeOf(error instanceof BaseError ? error.cause : error)
    if (code !== undefined && importRefused.has(code)) {
      throw new BaseError('not_implemented', 'This PKCS#11 token does not accept imported keys', {
        details: { code },
        cause: error,
      })
    }
    throw error
  }
}
