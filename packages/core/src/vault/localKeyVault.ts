import { type Address, bytesToHex, type Hex, hexToBytes, type LocalAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { BaseError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import { openEnvelope, sealEnvelope } from './envelope.js'
import { assertMnemonic, type HdWallet, hdWalletFromMnemonic } from './hdWallet.js'
import { type LocalEd25519Keys, localEd25519Keys } from './localEd25519Keys.js'
import type { LocalKeyRecord } from './localKeyRecord.js'
import { parseMasterKey } from './masterKey.js'
import { nextFreeIndex } from './nextFreeIndex.js'
import { signerFromKey } from './signerFromKey.js'
import type { KeyRecordStore, KeyVault, PreparedKey } from './types.js'
import { parsePrivateKey, vaultAddressId } from './vaultAddress.js'

type CommonOptions = {
  /** Where sealed records live, e.g. `storageKeyRecordStore(storage)`. */
  store: KeyRecordStore<LocalKeyRecord>
  name?: string | undefined
}

export type LocalKeyVaultOptions = CommonOptions &
  (
    | {
        /** 32 bytes (or 64 hex characters / base64) that wrap every wallet's data key. */
        masterKey: Uint8Array | string
        mnemonic?: undefined
      }
    | {
        /**
         * HD mode: wallets are m/44'/60'/0'/0/i of this BIP-39 phrase, so it alone recovers them.
         * Imported keys are sealed under a key derived from its seed (HKDF), not a master key,
         * so the phrase stays the only secret to back up.
         */
        mnemonic: string
        passphrase?: string | undefined
        masterKey?: undefined
      }
  )

export type LocalKeyVault = KeyVault & {
  exportKey(address: Address): Promise<Hex>
  /** Ed25519 keys sealed like the secp256k1 ones; undefined in HD mode (the phrase would not recover them). */
  readonly ed25519: LocalEd25519Keys | undefined
}

/**
 * The default KeyVault: keys sealed with envelope encryption (AES-256-GCM, per-wallet data keys
 * wrapped by a master key, the address as associated data), or derived from a mnemonic in HD mode.
 * @example const vault = localKeyVault({ masterKey, store: storageKeyRecordStore(storage) })
 */
export const localKeyVault = (options: LocalKeyVaultOptions): LocalKeyVault => {
  const { store } = options
  const mnemonic = options.mnemonic
  const passphrase = options.mnemonic === undefined ? '' : (options.passphrase ?? '')
  if (mnemonic !== undefined) assertMnemonic(mnemonic)
  const masterKey = mnemonic === undefined ? parseMasterKey(options.masterKey) : undefined
  let hdWallet: Promise<HdWallet> | undefined
  // Derived lazily: the seed's PBKDF2 is slow and the factory stays synchronous.
  const hd = () => {
    hdWallet ??= hdWalletFromMnemonic(mnemonic!, passphrase)
    return hdWallet
  }
  const wrappingKey = async () => masterKey ?? (await hd()).importKey
  let nextIndex = 0

  const keyBytesOf = async (id: string, record: LocalKeyRecord): Promise<Uint8Array> => {
    if (record.kind === 'envelope') return openEnvelope(record, await wrappingKey(), id)
    if (mnemonic === undefined) {
      throw new BaseError(
        'master_key_mismatch',
        'This wallet was derived from a mnemonic; open the vault in HD mode',
        {
          details: { address: id },
        },
      )
    }
    const wallet = await hd()
    if (record.keyId !== wallet.keyId) {
      throw new BaseError('master_key_mismatch', 'This wallet was derived from another mnemonic', {
        details: { address: id },
      })
    }
    return wallet.privateKey(record.index)
  }

  /** The private key filed under `address`, checked to really belong to it. */
  const privateKeyOf = async (address: Address): Promise<Hex> => {
    const id = vaultAddressId(address)
    const record = await store.get(id as Address)
    if (!record) throw new NotFoundError('Key', { details: { address: id } })
    const bytes = await keyBytesOf(id, record)
    const privateKey = bytesToHex(bytes)
    bytes.fill(0)
    // A record copied whole from another wallet (an HD index, say) must not sign for this address.
    // Envelope records need no such check: the address is their AEAD associated data.
    if (record.kind === 'hd' && privateKeyToAccount(privateKey).address.toLowerCase() !== id) {
      throw new BaseError('key_decryption_failed', 'The stored key does not belong to this address', {
        details: { address: id },
      })
    }
    return privateKey
  }

  const seal = async (privateKey: Hex, address: Address): Promise<LocalKeyRecord> => {
    const bytes = hexToBytes(privateKey)
    const record = sealEnvelope(bytes, await wrappingKey(), address)
    bytes.fill(0)
    return record
  }

  const sealAndAdd = async (privateKey: Hex, address: Address): Promise<Address> => {
    const record = await seal(privateKey, address)
    // false means the vault already holds this key (a repeated or concurrent import): same address.
    await store.add(vaultAddressId(address) as Address, record)
    return address
  }

  const createHdKey = async (): Promise<Address> => {
    const wallet = await hd()
    const isUsed = async (index: number) =>
      (await store.get(vaultAddressId(wallet.address(index)) as Address)) !== undefined
    for (;;) {
      const index = await nextFreeIndex(isUsed, nextIndex)
      nextIndex = index + 1
      const address = wallet.address(index)
      const record: LocalKeyRecord = {
        version: 1,
        kind: 'hd',
        address: vaultAddressId(address),
        keyId: wallet.keyId,
        index,
      }
      // Another caller may have taken the index between the probe and here: try the next one.
      if (await store.add(vaultAddressId(address) as Address, record)) return address
    }
  }

  const { addIn } = store
  // HD keys take the next free index, probed against committed records: they keep `createKey`.
  const prepareKey =
    mnemonic === undefined && addIn
      ? async (): Promise<PreparedKey> => {
          const privateKey = generatePrivateKey()
          const { address } = privateKeyToAccount(privateKey)
          const record = await seal(privateKey, address)
          return { address, save: (tx) => addIn(tx, vaultAddressId(address) as Address, record) }
        }
      : undefined

  return {
    name: options.name ?? 'local',
    capabilities: { exportable: true, hd: mnemonic !== undefined, encryptedAtRest: true },
    async createKey() {
      if (mnemonic !== undefined) return createHdKey()
      const privateKey = generatePrivateKey()
      return sealAndAdd(privateKey, privateKeyToAccount(privateKey).address)
    },
    async importKey(value) {
      const { privateKey, address } = parsePrivateKey(value)
      if (await store.get(vaultAddressId(address) as Address)) return address
      return sealAndAdd(privateKey, address)
    },
    async hasKey(address) {
      return (await store.get(vaultAddressId(address) as Address)) !== undefined
    },
    async getSigner(address): Promise<LocalAccount> {
      // Built per use, so no long-lived object holds the key between signatures.
      return signerFromKey(address, await privateKeyOf(address))
    },
    exportKey: privateKeyOf,
    ed25519: mnemonic === undefined ? localEd25519Keys({ store, wrappingKey }) : undefined,
    ...(prepareKey ? { prepareKey } : {}),
  }
}
