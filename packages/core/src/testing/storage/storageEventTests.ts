import type { StoredEvent } from '../../storage/types.js'
import { type StorageSuiteContext, sleep } from './storageSuiteContext.js'

const event = (id: string, data: unknown = {}) => ({
  id,
  type: 'test.event',
  timestamp: '2026-01-01T00:00:00.000Z',
  data,
})

/** The per-stream event log and its listeners. */
export const storageEventTests = ({ runner, withStorage }: StorageSuiteContext) => {
  const { it, expect } = runner

  it('numbers events per stream from 1 and reads them after a seq', () =>
    withStorage(async (storage) => {
      await storage.transaction([], async (tx) => {
        tx.appendEvent('a', event('a1', { n: 1 }))
        tx.appendEvent('b', event('b1'))
        tx.appendEvent('a', event('a2'))
      })
      await storage.transaction([], async (tx) => tx.appendEvent('a', event('a3')))
      const a = await storage.readEvents('a')
      expect(a.map((e) => [e.id, e.seq, e.stream])).toEqual([
        ['a1', 1, 'a'],
        ['a2', 2, 'a'],
        ['a3', 3, 'a'],
      ])
      expect(a[0]).toEqual({ ...event('a1', { n: 1 }), stream: 'a', seq: 1 })
      expect((await storage.readEvents('b')).map((e) => e.seq)).toEqual([1])
      expect((await storage.readEvents('a', { after: 1 })).map((e) => e.id)).toEqual(['a2', 'a3'])
      expect((await storage.readEvents('a', { after: 1, limit: 1 })).map((e) => e.id)).toEqual(['a2'])
      expect(await storage.readEvents('a', { after: 3 })).toEqual([])
      expect(await storage.readEvents('never')).toEqual([])
    }))

  it('selects a stream’s events by key and by time, in seq order, after a seq and up to a limit', () =>
    withStorage(async (storage) => {
      const at = (id: string, second: number, keys?: string[]) => ({
        ...event(id),
        timestamp: `2026-01-01T00:00:0${second}.000Z`,
        keys,
      })
      await storage.transaction([], async (tx) => {
        tx.appendEvent('k', at('k1', 1, ['kind:x', 'wallet:1']))
        tx.appendEvent('k', at('k2', 2, ['kind:y']))
        tx.appendEvent('other', at('o1', 2, ['kind:x']))
      })
      await storage.transaction([], async (tx) => {
        tx.appendEvent('k', at('k3', 3, ['kind:x', 'wallet:2']))
        tx.appendEvent('k', at('k4', 4))
        tx.appendEvent('k', at('k5', 5, ['kind:x']))
      })
      const ids = (events: StoredEvent[]) => events.map((e) => [e.id, e.seq])
      expect(ids(await storage.readEvents('k', { key: 'kind:x' }))).toEqual([
        ['k1', 1],
        ['k3', 3],
        ['k5', 5],
      ])
      expect(ids(await storage.readEvents('k', { key: 'kind:x', after: 1, limit: 1 }))).toEqual([['k3', 3]])
      expect(ids(await storage.readEvents('k', { key: 'wallet:2' }))).toEqual([['k3', 3]])
      expect(await storage.readEvents('k', { key: 'wallet:3' })).toEqual([])
      // Time: from inclusive, to exclusive; with a key, both at once.
      const from = '2026-01-01T00:00:02.000Z'
      const to = '2026-01-01T00:00:05.000Z'
      expect(ids(await storage.readEvents('k', { from, to }))).toEqual([
        ['k2', 2],
        ['k3', 3],
        ['k4', 4],
      ])
      expect(ids(await storage.readEvents('k', { key: 'kind:x', from, to }))).toEqual([['k3', 3]])
      // Keys select; they are not part of the event read back.
      expect((await storage.readEvents('k', { key: 'kind:y' }))[0]).toEqual({
        ...event('k2'),
        timestamp: '2026-01-01T00:00:02.000Z',
        stream: 'k',
        seq: 2,
      })
    }))

  it('assigns seq in commit order, not in append order', () =>
    withStorage(async (storage) => {
      let release!: () => void
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      // The first transaction appends first but commits last.
      const slow = storage.transaction(['slow'], async (tx) => {
        tx.appendEvent('s', event('appended-first'))
        await gate
      })
      await sleep(5)
      await storage.transaction(['fast'], async (tx) => tx.appendEvent('s', event('committed-first')))
      release()
      await slow
      const events = await storage.readEvents('s')
      expect(events.map((e) => [e.id, e.seq])).toEqual([
        ['committed-first', 1],
        ['appended-first', 2],
      ])
    }))

  it('tells listeners about events only after commit, never for a rolled back transaction', () =>
    withStorage(async (storage) => {
      const seen: StoredEvent[][] = []
      const unsubscribe = storage.onEvents((events) => {
        seen.push(events)
      })
      let appended = false
      await storage.transaction([], async (tx) => {
        tx.appendEvent('s', event('e1'))
        tx.appendEvent('s', event('e2'))
        appended = true
        await sleep(5)
        // Not committed yet: listeners must still be waiting.
        expect(seen).toEqual([])
      })
      expect(appended).toBe(true)
      await expect(
        storage.transaction([], async (tx) => {
          tx.appendEvent('s', event('never'))
          throw Object.assign(new Error('rollback'), { code: 'test_rollback' })
        }),
      ).rejects.toMatchObject({ code: 'test_rollback' })
      await storage.transaction([], async (tx) => tx.put('things', { id: 'no-events' }))
      await sleep(20)
      expect(seen.flat().map((e) => [e.id, e.seq])).toEqual([
        ['e1', 1],
        ['e2', 2],
      ])
      unsubscribe()
      await storage.transaction([], async (tx) => tx.appendEvent('s', event('after-unsubscribe')))
      await sleep(20)
      expect(seen.flat()).toHaveLength(2)
    }))

  it('has committed the events a listener hears about', () =>
    withStorage(async (storage) => {
      const reads: Promise<StoredEvent[]>[] = []
      storage.onEvents(() => {
        reads.push(storage.readEvents('s'))
      })
      await storage.transaction([], async (tx) => tx.appendEvent('s', event('e1')))
      await sleep(20)
      expect(reads).toHaveLength(1)
      expect((await reads[0]!).map((e) => e.id)).toEqual(['e1'])
    }))

  it("hands a listener's throw to its onError, keeps the commit and still tells the other listeners", () =>
    withStorage(async (storage) => {
      const failure = new Error('listener failed')
      const heard: unknown[] = []
      const seen: string[] = []
      const unsubscribeFailing = storage.onEvents(
        () => {
          throw failure
        },
        (error) => heard.push(error),
      )
      const unsubscribeOther = storage.onEvents((events) => seen.push(...events.map((e) => e.id)))
      await storage.transaction([], async (tx) => tx.appendEvent('s', event('e1')))
      await sleep(20)
      unsubscribeFailing()
      unsubscribeOther()
      expect(heard).toEqual([failure])
      expect(seen).toEqual(['e1'])
      expect((await storage.readEvents('s')).map((e) => e.id)).toEqual(['e1'])
    }))
}
