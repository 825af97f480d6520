import type { StoredEvent } from '@agentwallet/core'
import { sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDatabases } from './tempDatabase.js'

const temp = tempDatabases()
afterAll(() => temp.cleanup())

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('sqliteStorage with concurrent writers in one process', () => {
  it('commits many transactions on distinct keys, with gap-free event seqs in commit order', async () => {
    const filename = temp.next()
    const storage = sqliteStorage({ filename })
    const heard: StoredEvent[] = []
    storage.onEvents((events) => heard.push(...events))
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        storage.transaction([`wallet:${i % 10}`], async (tx) => {
          await tx.insert('items', { id: `item-${i}`, wallet: i % 10 })
          await tick()
          tx.appendEvent('all', {
            id: `e-${i}`,
            type: 'item.created',
            timestamp: new Date().toISOString(),
            data: { i },
          })
        }),
      ),
    )
    const events = await storage.readEvents('all')
    expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    // Listeners heard every event once, in the order they were committed.
    expect(heard.map((event) => [event.id, event.seq])).toEqual(events.map((event) => [event.id, event.seq]))
    expect(await storage.count('items')).toBe(100)
    await storage.close()
    const reopened = sqliteStorage({ filename })
    expect((await reopened.readEvents('all', { after: 98 })).map((event) => event.seq)).toEqual([99, 100])
    await reopened.close()
  })

  it('re-checks inserts at commit: of two unlocked inserts of one id, exactly one wins', async () => {
    const storage = sqliteStorage({ filename: temp.next() })
    const outcomes = await Promise.allSettled(
      ['a', 'b'].map((writer) =>
        storage.transaction([], async (tx) => {
          await tx.insert('claims', { id: 'same', writer })
          // Both have passed their own existence check before either commits.
          await tick()
          await tick()
          tx.appendEvent('claims', {
            id: writer,
            type: 'claimed',
            timestamp: '2026-01-01T00:00:00.000Z',
            data: {},
          })
        }),
      ),
    )
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected'])
    const rejected = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult
    expect(rejected.reason).toMatchObject({ code: 'storage_conflict' })
    const winner = (outcomes[0]!.status === 'fulfilled' ? 'a' : 'b') as string
    expect(await storage.get('claims', 'same')).toEqual({ id: 'same', writer: winner })
    // The loser's event was rolled back with its insert.
    expect((await storage.readEvents('claims')).map((event) => event.id)).toEqual([winner])
    await storage.close()
  })

  it('lets reads outside a transaction see only committed state while writers interleave', async () => {
    const storage = sqliteStorage({ filename: temp.next() })
    const readsSeen: number[] = []
    const writers = Array.from({ length: 20 }, (_, i) =>
      storage.transaction(['k'], async (tx) => {
        for (let j = 0; j < 5; j++) await tx.put('rows', { id: `r-${i}-${j}`, batch: i })
        await tick()
      }),
    )
    const reader = (async () => {
      for (let i = 0; i < 40; i++) {
        readsSeen.push(await storage.count('rows'))
        await tick()
      }
    })()
    await Promise.all([...writers, reader])
    // Whole batches only: a commit of five rows is never seen half-applied.
    expect(readsSeen.every((seen) => seen % 5 === 0)).toBe(true)
    expect(await storage.count('rows')).toBe(100)
    await storage.close()
  })
})
