import { describe, expect, it } from 'vitest'
import { runStorageConformance } from '../testing/storageConformance.js'
import { memoryStorage } from './memoryStorage.js'

runStorageConformance(
  { describe, it, expect },
  {
    create: () => memoryStorage(),
    skip: {
      durability: 'memory storage is not durable',
      crossProcessLocks: 'memory storage lives in one process',
      crossProcessEvents: 'memory storage lives in one process',
    },
  },
)

describe('memoryStorage indexes', () => {
  // Partial wallet records: only the indexed fields these reads filter on.
  const wallet = (id: string, address: string | null, tenantId = 't1') => ({ id, address, tenantId })

  it('finds records by an indexed field after inserts, updates and deletes', async () => {
    const storage = memoryStorage()
    await storage.transaction([], async (tx) => {
      await tx.put<string>('wallets', wallet('w1', '0xa'))
      await tx.put<string>('wallets', wallet('w2', '0xb'))
      await tx.put<string>('wallets', wallet('w3', null))
    })
    await storage.transaction([], async (tx) => {
      await tx.put<string>('wallets', wallet('w1', '0xc'))
      await tx.delete('wallets', 'w2')
    })
    const ids = async (where: Record<string, string | null | string[]>) =>
      (await storage.query('wallets', { where })).map((record) => record.id)
    expect(await ids({ address: '0xa' })).toEqual([])
    expect(await ids({ address: '0xb' })).toEqual([])
    expect(await ids({ address: '0xc' })).toEqual(['w1'])
    expect(await ids({ address: null })).toEqual(['w3'])
    expect(await ids({ address: ['0xc', '0xa', '0xc'] })).toEqual(['w1'])
    expect(await ids({ id: ['w3', 'w2'] })).toEqual(['w3'])
    expect(await storage.count('wallets', { where: { tenantId: 't1', address: '0xc' } })).toBe(1)
  })

  it("sees a transaction's own writes through an index, and commits them to it", async () => {
    const storage = memoryStorage()
    await storage.transaction([], (tx) => tx.put<string>('wallets', wallet('w1', '0xa')))
    const seen = await storage.transaction([], async (tx) => {
      await tx.put<string>('wallets', wallet('w1', '0xb'))
      await tx.put<string>('wallets', wallet('w2', '0xa'))
      return (await tx.query('wallets', { where: { address: '0xa' } })).map((record) => record.id)
    })
    expect(seen).toEqual(['w2'])
    expect(
      (await storage.query('wallets', { where: { address: '0xb' } })).map((record) => record.id),
    ).toEqual(['w1'])
  })

  it('rebuilds its indexes from a snapshot', async () => {
    const storage = memoryStorage()
    await storage.transaction([], (tx) => tx.put<string>('wallets', wallet('w1', '0xa')))
    const restored = memoryStorage({ snapshot: storage.snapshot() })
    expect(await restored.count('wallets', { where: { address: '0xa' } })).toBe(1)
  })
})
