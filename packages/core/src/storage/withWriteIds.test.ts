import { describe, expect, it, vi } from 'vitest'
import { memoryStorage } from './memoryStorage.js'
import type { Storage } from './types.js'
import { withWriteIds } from './withWriteIds.js'

const counter = () => {
  let n = 0
  return () => `w${++n}`
}

describe('withWriteIds', () => {
  it('gives each write of a stamped collection a fresh writeId, even over one spread from a read', async () => {
    const storage = withWriteIds(memoryStorage(), ['transactions'], counter())
    await storage.transaction([], (tx) =>
      tx.insert('transactions', { id: 't1', status: 'submitted' } as never),
    )
    const first = (await storage.get('transactions', 't1')) as { writeId?: string }
    await storage.transaction([], (tx) => tx.put('transactions', { ...first, status: 'confirmed' } as never))
    const second = (await storage.get('transactions', 't1')) as { writeId?: string; status: string }
    expect(first.writeId).toBe('w1')
    expect(second).toMatchObject({ status: 'confirmed', writeId: 'w2' })
    // Read-your-writes inside the transaction sees the stamped record too.
    const inside = await storage.transaction([], async (tx) => {
      await tx.put('transactions', { ...second, writeId: 'stale' } as never)
      return tx.get('transactions', 't1')
    })
    expect(inside).toMatchObject({ writeId: 'w3' })
  })

  it('leaves other collections as written, and every other member to the adapter', async () => {
    const adapter = memoryStorage()
    const storage = withWriteIds(adapter, ['transactions'], counter())
    await storage.transaction([], async (tx) => {
      await tx.put('wallets', { id: 'w', address: '0x1' } as never)
      tx.appendEvent('default', { id: 'e1', type: 'wallet.created', timestamp: '', data: { a: 1 } })
    })
    expect(await storage.get('wallets', 'w')).toEqual({ id: 'w', address: '0x1' })
    expect(await adapter.readEvents('default')).toHaveLength(1)
    expect(storage.name).toBe(adapter.name)
    expect(storage.capabilities).toBe(adapter.capabilities)
    expect(storage.readEvents).toBe(storage.readEvents)
  })

  it('uses a method replaced on it or on the adapter after wrapping (a spy)', async () => {
    const adapter = memoryStorage()
    const storage = withWriteIds(adapter, ['transactions'], counter())
    expect(await storage.count('wallets')).toBe(0)
    const spy = vi.spyOn(storage, 'count').mockResolvedValueOnce(7)
    expect(await storage.count('wallets')).toBe(7)
    expect(await storage.count('wallets')).toBe(0)
    spy.mockRestore()
    expect(await storage.count('wallets')).toBe(0)
  })

  it('calls a class-based adapter on itself, so its private fields work', async () => {
    class Counting implements Pick<Storage, 'name' | 'readEvents'> {
      readonly name = 'counting'
      #reads = 0
      async readEvents() {
        this.#reads++
        return []
      }
      get reads() {
        return this.#reads
      }
    }
    const adapter = new Counting()
    const storage = withWriteIds(adapter as unknown as Storage, ['transactions'], counter())
    await storage.readEvents('s')
    expect((storage as unknown as Counting).reads).toBe(1)
  })
})
