import type { Address } from 'viem'
import { isAgentWalletError } from '../errors/baseError.js'
import type { Storage } from '../storage/types.js'
import type { LocalKeyRecord } from './localKeyRecord.js'
import type { KeyRecordStore } from './types.js'

/** The Storage collection that holds vault records. */
export const vaultKeysCollection = 'vault_keys'

/** A `vault_keys` row: a sealed key by its lowercase address. */
export type VaultKeyRow = { id: string; record: LocalKeyRecord }

/**
 * Keeps a vault's records in Storage (`vault_keys` by default, id = lowercase address). A vault with
 * records of its own shape (a KMS key id, say) names its own collection, so no vault reads another's.
 * @example const vault = localKeyVault({ masterKey, store: storageKeyRecordStore(storage) })
 */
export const storageKeyRecordStore = <TRecord = LocalKeyRecord>(
  storage: Storage,
  collection = vaultKeysCollection,
): KeyRecordStore<TRecord> => ({
  async get(address: Address) {
    const row = await storage.get(collection, address.toLowerCase())
    return row?.record as TRecord | undefined
  },
  async add(address: Address, record: TRecord) {
    const id = address.toLowerCase()
    try {
      await storage.transaction([`${collection}:${id}`], (tx) => tx.insert(collection, { id, record }))
      return true
    } catch (error) {
      if (isAgentWalletError(error, 'storage_conflict')) return false
      throw error
    }
  },
  async addIn(tx, address, record) {
    await tx.insert(collection, { id: address.toLowerCase(), record })
  },
})
