import {
  checkedEd25519Signature,
  type Ed25519Keys,
  ed25519KeyPair,
  ed25519PublicKey,
  NotFoundError,
} from '@agentwallet/core'
import { edwardsPointAddress } from './ecPointAddress.js'
import { ed25519Curve, pkcs11v3 } from './keyTemplates.js'
import type { TokenConnection, TokenSession } from './tokenConnection.js'
import { importOnToken, keyHandles, oneImportPerKey } from './tokenKeyHandles.js'
import { generateTokenPair, importTokenPair } from './tokenKeys.js'

export type Pkcs11Ed25519KeysParameters = {
  token: TokenConnection
  /** Signatures asked of the token for one message before a bad one fails with `vault_error`. */
  maxAttempts: number
  /** The vault's counters, shared with its secp256k1 keys. */
  stats: { signatures: number; badSignatures: number }
}

/**
 * A PKCS#11 vault's Ed25519 keys: CKK_EC_EDWARDS pairs (CKA_EC_PARAMS id-Ed25519) generated in the
 * token, sensitive and non-extractable, filed under CKA_ID = the 32-byte public key and CKA_LABEL =
 * its base58 address. The token signs with CKM_EDDSA (pure Ed25519); each signature is verified
 * under the public key before use.
 * @example const keys = pkcs11Ed25519Keys({ token, maxAttempts: 3, stats })
 */
export function pkcs11Ed25519Keys({ token, maxAttempts, stats }: Pkcs11Ed25519KeysParameters): Ed25519Keys {
  const handleOf = keyHandles()
  const oneImport = oneImportPerKey<string>()
  const idOf = (address: string) => Buffer.from(ed25519PublicKey(address))
  const holds = (address: string) => token.use((session) => handleOf(session, idOf(address)) !== undefined)

  const signRaw = (address: string, message: Uint8Array) =>
    token.use(async (session: TokenSession) => {
      const key = handleOf(session, idOf(address))
      if (!key) throw new NotFoundError('Key', { details: { address } })
      session.lib.C_SignInit(session.session, { mechanism: pkcs11v3.CKM_EDDSA }, key)
      const raw = await session.lib.C_SignAsync(session.session, Buffer.from(message), Buffer.alloc(64))
      stats.signatures += 1
      return new Uint8Array(raw)
    })

  const importNew = async (secretKey: Uint8Array): Promise<string> => {
    const { seed, publicKey, address } = ed25519KeyPair(secretKey)
    const value = Buffer.from(seed)
    seed.fill(0)
    try {
      if (await holds(address)) return address
      const id = Buffer.from(publicKey)
      const key = { id, label: address, value, point: id, curve: ed25519Curve }
      await importOnToken(() => token.use((session) => importTokenPair(session, key)))
      return address
    } finally {
      value.fill(0)
    }
  }

  return {
    createKey: () =>
      token.use((session) =>
        generateTokenPair(session, pkcs11v3.CKM_EC_EDWARDS_KEY_PAIR_GEN, ed25519Curve.params, (point) => {
          const address = edwardsPointAddress(point)
          return { id: Buffer.from(ed25519PublicKey(address)), label: address, name: address }
        }),
      ),
    async importKey(secretKey) {
      // The address is checked before the token sees anything (a mismatched pair is validation_failed).
      const { address, seed } = ed25519KeyPair(secretKey)
      seed.fill(0)
      return await oneImport(address, () => importNew(secretKey))
    },
    hasKey: holds,
    async getSigner(address) {
      if (!(await holds(address))) throw new NotFoundError('Key', { details: { address } })
      return {
        address,
        signBytes: (message) =>
          checkedEd25519Signature({
            message,
            address,
            signRaw: () => signRaw(address, message),
            maxAttempts,
            onBadSignature: () => {
              stats.badSignatures += 1
            },
          }),
      }
    },
  }
}
