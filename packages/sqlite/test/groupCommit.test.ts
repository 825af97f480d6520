import type { StoredEvent } from '@agentwallet/core'
import { sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDatabases } from './tempDatabase.js'

const temp = tempDatabases()
afterAll(() => temp.cleanup())

describe('sqliteStorage group commit', () => {
  it('makes commits that are ready together durable with shared syncs, telling listeners in seq order', async () => {
    const storage = sqliteStorage({ filename: temp.next() })
    try {
      const seen: StoredEvent[] = []
      storage.onEvents((events) => seen.push(...events))
      const before = storage.syncs
      const commits = 100
      await Promise.all(
        Array.from({ length: commits }, (_, i) =>
          storage.transaction([`k${i}`], async (tx) => {
            await tx.put('things', { id: `t${i}` })
            tx.appendEvent('s', { id: `e${i}`, type: 't', timestamp: '2026-01-01T00:00:00.000Z', data: {} })
          }),
        ),
      )
      const syncs = storage.syncs - before
      expect(syncs).toBeGreaterThan(0)
      expect(syncs).toBeLessThan(commits)
      expect(seen.map((event) => event.seq)).toEqual(Array.from({ length: commits }, (_, i) => i + 1))
      expect(await storage.count('things')).toBe(commits)
    } finally {
      await storage.close()
    }
  })

  it('syncs nothing itself with `synchronous: normal`', async () => {
    const storage = sqliteStorage({ filename: temp.next(), synchronous: 'normal' })
    try {
      await storage.transaction([], (tx) => tx.put('things', { id: 'a' }))
      expect(storage.syncs).toBe(0)
      expect(await storage.get('things', 'a')).toEqual({ id: 'a' })
    } finally {
      await storage.close()
    }
  })

  it('keeps every commit across checkpoints and a reopen', async () => {
    const filename = temp.next()
    const storage = sqliteStorage({ filename })
    // More commits than the checkpoint interval (1000), so the WAL is copied back and reused meanwhile.
    for (let batch = 0; batch < 12; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          storage.transaction([], (tx) => tx.put('things', { id: `t${batch * 100 + i}` })),
        ),
      )
    }
    await storage.close()
    const reopened = sqliteStorage({ filename })
    try {
      expect(await reopened.count('things')).toBe(1200)
    } finally {
      await reopened.close()
    }
  })
})
