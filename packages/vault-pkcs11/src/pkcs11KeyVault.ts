import {
  checkedSignature,
  type Ed25519Keys,
  type KeyVault,
  NotFoundError,
  parsePrivateKey,
  signerFromSign,
  vaultAddressId,
} from '@agentwallet/core'
import { type Address, getAddress, type Hex, hexToBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { pkcs11Ed25519Keys } from './pkcs11Ed25519Keys.js'
import { type TokenConnectionOptions, type TokenSession, tokenConnection } from './tokenConnection.js'
import { importOnToken, keyHandles, oneImportPerKey } from './tokenKeyHandles.js'
import { generateTokenKey, importTokenKey, keyId } from './tokenKeys.js'

export type Pkcs11KeyVaultOptions = TokenConnectionOptions & {
  name?: string | undefined
  /** Signatures asked of the token for one hash before a bad one fails with `vault_error` (default 3). */
  maxSignAttempts?: number | undefined
}

/** What the vault has signed since it was made; `badSignatures` did not recover to the wallet and were retried. */
export type Pkcs11VaultStats = { signatures: number; badSignatures: number }

export type Pkcs11KeyVault = Omit<KeyVault, 'probe' | 'stats' | 'ed25519'> & {
  /** Ed25519 keys in the same token (CKK_EC_EDWARDS, signed with CKM_EDDSA). */
  readonly ed25519: Ed25519Keys
  probe(): Promise<void>
  stats(): Pkcs11VaultStats
  /** Closes this vault's sessions (the library stays loaded for the process). */
  close(): Promise<void>
}

/**
 * A KeyVault whose keys are secp256k1 (and Ed25519) pairs generated in a PKCS#11 token (an HSM,
 * SoftHSM2) and never leave it: every signature is the token's, checked before use (to recover to the
 * wallet, or to verify under its Ed25519 public key).
 * @example const vault = pkcs11KeyVault({ module: '/usr/lib/softhsm/libsofthsm2.so', tokenLabel: 'agentwallet', pin })
 */
export function pkcs11KeyVault(options: Pkcs11KeyVaultOptions): Pkcs11KeyVault {
  const token = tokenConnection(options)
  const maxAttempts = Math.max(1, options.maxSignAttempts ?? 3)
  const stats: Pkcs11VaultStats = { signatures: 0, badSignatures: 0 }
  const handleOf = keyHandles()
  const oneImport = oneImportPerKey<Address>()
  const keyHandle = (session: TokenSession, address: Address) => handleOf(session, keyId(address))

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
      await importOnToken(() => token.use((session) => importTokenKey(session, address, value, point)))
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
      return await oneImport(address, () => importNew(privateKey, address))
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
    ed25519: pkcs11Ed25519Keys({ token, maxAttempts, stats }),
    probe: () => token.probe(),
    stats: () => ({ ...stats }),
    close: () => token.close(),
  }
}
