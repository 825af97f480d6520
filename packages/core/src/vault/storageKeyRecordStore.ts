import type { Address } from 'viem'
import { isAgentWalletError } from '../errors/baseError.js'
import type { Storage } from '../storage/types.js'
import type { KeyRecordStore } from './types.js'

/** The Storage collection that holds vault records. */
export const vaultKeysCollection = 'vault_keys'

type Row<TRecord> = { id: string; record: TRecord }

/**
 * Keeps a vault's records in Storage (`vault_keys`, id = lowercase address).
 * @example const vault = localKeyVault({ masterKey, store: storageKeyRecordStore(storage) })
 */
export const storageKeyRecordStore = <TRecord>(storage: Storage): KeyRecordStore<TRecord> => ({
  async get(address: Address) {
    const row = await storage.get<Row<TRecord>>(vaultKeysCollection, address.toLowerCase())
    return row?.record
  },
  async add(address: Address, record: TRecord) {
    const id = address.toLowerCase()
    try {
      await storage.transaction([`${vaultKeysCollection}:${id}`], (tx) =>
        tx.insert(vaultKeysCollection, { id, record }),
      )
      return true
    } catch (error) {
      if (isAgentWalletError(error, 'storage_conflict')) return false
      throw error
    }
  },
  async addIn(tx, address, record) {
    await tx.insert(vaultKeysCollection, { id: address.toLowerCase(), record })
  },
})
