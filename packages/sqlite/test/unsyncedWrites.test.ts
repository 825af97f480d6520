import type * as fs from 'node:fs'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { heldSyncs } from '../../../test/helpers/heldSyncs.js'
import { sqliteStorage } from '../src/sqliteStorage.js'
import { unsyncedWrites } from '../src/unsyncedWrites.js'
import { tempDatabases } from './tempDatabase.js'

vi.mock('node:fs', async (original) =>
  (await import('../../../test/helpers/heldSyncs.js')).holdingSyncs(await original<typeof fs>()),
)
const { held } = heldSyncs
const releaseSyncs = () => heldSyncs.release()

const temp = tempDatabases()
afterAll(() => temp.cleanup())

describe('unsyncedWrites', () => {
  it('gives each record, collection and stream the ticket of the last commit that wrote it, 0 for none', () => {
    let synced = 0
    const unsynced = unsyncedWrites(() => synced)
    unsynced.wrote(1, new Map([['wallets', new Map([['w1', '{}']])]]), ['tenant:t1'])
    unsynced.wrote(2, new Map([['transactions', new Map([['tx1', null]])]]), [])
    expect(unsynced.ticketOf('wallets', 'w1')).toBe(1)
    expect(unsynced.ticketOf('wallets', 'w2')).toBe(0)
    expect(unsynced.ticketOf('wallets')).toBe(1)
    expect(unsynced.ticketOf('transactions', 'tx1')).toBe(2)
    expect(unsynced.ticketOf('gadgets')).toBe(0)
    expect(unsynced.streamTicket('tenant:t1')).toBe(1)
    expect(unsynced.streamTicket('tenant:t2')).toBe(0)
    synced = 2
    // Swept once there are many: a ticket already synced needs no wait anyway.
    for (let i = 0; i < 5000; i++) unsynced.wrote(3, new Map([['things', new Map([[`t${i}`, '{}']])]]), [])
    expect(unsynced.ticketOf('wallets', 'w1')).toBe(0)
    expect(unsynced.ticketOf('things', 't4999')).toBe(3)
  })
})

describe('sqliteStorage reads while a commit is being synced', () => {
  it('waits for the sync only when the read may see what that commit wrote', async () => {
    const storage = sqliteStorage({ filename: temp.next() })
    try {
      await storage.transaction([], async (tx) => tx.put('gadgets', { id: 'p1', rules: [] }))
      heldSyncs.holding = true
      const order: string[] = []
      const write = storage.transaction([], async (tx) => {
        await tx.put('things', { id: 't1', n: 1 })
        tx.appendEvent('s1', { id: 'e1', type: 't', timestamp: '2026-01-01T00:00:00.000Z', data: {} })
      })
      void write.then(() => order.push('commit'))
      await vi.waitUntil(() => held.length > 0) // applied, its sync under way
      const reads = [
        storage.get('things', 't1').then(() => order.push('the record written')),
        storage.query('things').then(() => order.push('its collection')),
        storage.readEvents('s1').then(() => order.push('its stream')),
        storage.get('gadgets', 'p1').then(() => order.push('another collection')),
        storage.get('things', 't2').then(() => order.push('another record')),
        storage.readEvents('s2').then(() => order.push('another stream')),
        storage.transaction(['k'], async (tx) => tx.get('gadgets', 'p1')).then(() => order.push('a lock')),
      ]
      await Promise.all(reads.slice(3))
      expect(order).toEqual(['another collection', 'another record', 'another stream', 'a lock'])
      releaseSyncs()
      await Promise.all([write, ...reads])
      expect(order.slice(4)).toEqual(['commit', 'the record written', 'its collection', 'its stream'])
    } finally {
      releaseSyncs()
      await storage.close()
    }
  })

  it('lets storage.unsynced commit and read before the sync; the rest waits for it', async () => {
    const storage = sqliteStorage({ filename: temp.next() })
    try {
      const unsynced = storage.unsynced!
      const notified: string[] = []
      storage.onEvents((events) => notified.push(...events.map((event) => event.id)))
      heldSyncs.holding = true
      const order: string[] = []
      const { synced } = await unsynced.commit(async (tx) => {
        await tx.put('things', { id: 't1', n: 1 })
        tx.appendEvent('s1', { id: 'e1', type: 't', timestamp: '2026-01-01T00:00:00.000Z', data: {} })
      })
      void synced.then(() => order.push('synced'))
      await vi.waitUntil(() => held.length > 0) // applied, its sync under way
      expect(await unsynced.reader.get('things', 't1')).toEqual({ id: 't1', n: 1 })
      expect(await unsynced.reader.query('things')).toHaveLength(1)
      // A later unsynced commit under the same lock key needs no wait either.
      await unsynced.commit(async (tx) => tx.put('things', { id: 't2', n: 2 }))
      const read = storage.get('things', 't1').then(() => order.push('a durable read'))
      const all = unsynced.synced().then(() => order.push('all synced'))
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(order).toEqual([])
      expect(notified).toEqual([])
      releaseSyncs()
      await Promise.all([synced, read, all])
      expect(order[0]).toBe('synced')
      expect([...order].sort()).toEqual(['a durable read', 'all synced', 'synced'])
      expect(notified).toEqual(['e1'])
    } finally {
      releaseSyncs()
      await storage.close()
    }
  })
})
