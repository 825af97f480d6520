import {
  BaseError,
  checkedSignature,
  type KeyVault,
  NotFoundError,
  parsePrivateKey,
  signerFromSign,
  vaultAddressId,
} from '@agentwallet/core'
import type * as Pkcs11js from 'pkcs11js'
import { type Address, getAddress, type Hex, hexToBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { pkcs11CodeOf, pkcs11Codes } from './pkcs11Codes.js'
import { type TokenConnectionOptions, type TokenSession, tokenConnection } from './tokenConnection.js'
import { findPrivateKey, generateTokenKey, importTokenKey } from './tokenKeys.js'

export type Pkcs11KeyVaultOptions = TokenConnectionOptions & {
  name?: string | undefined
  /** Signatures asked of the token for one hash before a bad one fails with `vault_error` (default 3). */
  maxSignAttempts?: number | undefined
}

/** What the vault has signed since it was made; `badSignatures` did not recover to the wallet and were retried. */
export type Pkcs11VaultStats = { signatures: number; badSignatures: number }

export type Pkcs11KeyVault = Omit<KeyVault, 'probe' | 'stats'> & {
  probe(): Promise<void>
  stats(): Pkcs11VaultStats
  /** Closes this vault's sessions (the library stays loaded for the process). */
  close(): Promise<void>
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

/**
 * A KeyVault whose keys are secp256k1 pairs generated in a PKCS#11 token (an HSM, SoftHSM2) and
 * never leave it: every signature is the token's, checked to recover to the wallet before use.
 * @example const vault = pkcs11KeyVault({ module: '/usr/lib/softhsm/libsofthsm2.so', tokenLabel: 'agentwallet', pin })
 */
export function pkcs11KeyVault(options: Pkcs11KeyVaultOptions): Pkcs11KeyVault {
  const token = tokenConnection(options)
  const maxAttempts = Math.max(1, options.maxSignAttempts ?? 3)
  const stats: Pkcs11VaultStats = { signatures: 0, badSignatures: 0 }
  const handles = new Map<string, { generation: number; handle: Pkcs11js.Handle }>()
  const importing = new Map<string, Promise<Address>>()

  /** The private key's handle, looked up once per session generation. */
  const keyHandle = (session: TokenSession, address: Address): Pkcs11js.Handle | undefined => {
    const known = handles.get(address)
    if (known?.generation === session.generation) return known.handle
    const handle = findPrivateKey(session, address)
    if (handle) handles.set(address, { generation: session.generation, handle })
    return handle
  }

  const holds = (address: Address) => token.use((session) => keyHandle(session, address) !== undefined)

  const signRaw = (address: Address, hash: Hex) =>
    token.use(async (session) => {
      const key = keyHandle(session, address)
      if (!key) throw new NotFoundError('Key', { details: { address } })
      session.lib.C_SignInit(session.session, { mechanism: session.binding.CKM_ECDSA }, key)
      const raw = await session.lib.C_SignAsync(
        session.session,
        Buffer.from(hexToBytes(hash)),
        Buffer.alloc(72),
      )
      stats.signatures += 1
      return new Uint8Array(raw)
    })

  const importNew = async (privateKey: Hex, address: Address): Promise<Address> => {
    if (await holds(address)) return address
    const value = Buffer.from(hexToBytes(privateKey))
    const point = Buffer.from(hexToBytes(privateKeyToAccount(privateKey).publicKey))
    try {
      await token.use((session) => importTokenKey(session, address, value, point))
    } catch (error) {
      const code = pkcs11CodeOf(error instanceof BaseError ? error.cause : error)
      if (code !== undefined && importRefused.has(code)) {
        throw new BaseError('not_implemented', 'This PKCS#11 token does not accept imported keys', {
          details: { code },
          cause: error,
        })
      }
      throw error
    } finally {
      value.fill(0)
    }
    return address
  }

  return {
    name: options.name ?? 'pkcs11',
    capabilities: { exportable: false, hd: false, encryptedAtRest: true },
    createKey: () => token.use(generateTokenKey),
    async importKey(value) {
      const { privateKey, address } = parsePrivateKey(value)
      // Two imports of one key at once would make two objects under one CKA_ID: the second waits.
      const pending = importing.get(address) ?? importNew(privateKey, address)
      importing.set(address, pending)
      try {
        return await pending
      } finally {
        if (importing.get(address) === pending) importing.delete(address)
      }
    },
    hasKey: (address) => holds(getAddress(vaultAddressId(address))),
    async getSigner(value) {
      const address = getAddress(vaultAddressId(value))
      if (!(await holds(address))) throw new NotFoundError('Key', { details: { address } })
      return signerFromSign(address, (hash) =>
        checkedSignature({
          hash,
          address,
          signRaw: () => signRaw(address, hash),
          maxAttempts,
          onBadSignature: () => {
            stats.badSignatures += 1
          },
        }),
      )
    },
    probe: () => token.probe(),
    stats: () => ({ ...stats }),
    close: () => token.close(),
  }
}
