import type * as fs from 'node:fs'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { sqliteStorage } from '../src/sqliteStorage.js'
import { unsyncedWrites } from '../src/unsyncedWrites.js'
import { tempDatabases } from './tempDatabase.js'

/** The WAL's syncs, held while `holding` until the test lets them run: a commit stays unsynced. */
const held: Array<() => void> = []
let holding = false
vi.mock('node:fs', async (original) => {
  const real = await original<typeof fs>()
  return {
    ...real,
    fdatasync: (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
      if (holding) held.push(() => real.fdatasync(fd, done))
      else real.fdatasync(fd, done)
    },
  }
})
const releaseSyncs = () => {
  holding = false
  for (const sync of held.splice(0)) sync()
}

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
      holding = true
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
})
