import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../storage/memoryStorage.js'
import type { HdKeyRecord } from './localKeyRecord.js'
import { storageKeyRecordStore, vaultKeysCollection } from './storageKeyRecordStore.js'

const address = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23' as Address
const hdRecord = (index: number): HdKeyRecord => ({ version: 1, kind: 'hd', address, keyId: 'k', index })

describe('storageKeyRecordStore', () => {
  it('files records by lowercase address and never overwrites one', async () => {
    const storage = memoryStorage()
    const store = storageKeyRecordStore(storage)
    expect(await store.add(address, hdRecord(1))).toBe(true)
    expect(await store.add(address.toLowerCase() as Address, hdRecord(2))).toBe(false)
    expect(await store.get(address.toLowerCase() as Address)).toEqual(hdRecord(1))
    expect(await storage.get(vaultKeysCollection, address.toLowerCase())).toEqual({
      id: address.toLowerCase(),
      record: hdRecord(1),
    })
  })
})
