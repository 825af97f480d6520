import type { Storage } from '../../storage/types.js'
import { type StorageSuiteContext, sleep } from './storageSuiteContext.js'

/**
 * The optional extras: a storage offers `tryLeaderLock` exactly when it declares `leaderLocks`, and
 * `takeToken` exactly when it declares `sharedTokenBuckets`; what it offers must hold across two
 * handles (two processes) when a peer can be opened.
 */
export const storageExtrasTests = (
  { runner, withStorage }: StorageSuiteContext,
  createPeer: ((storage: Storage) => Promise<Storage>) | undefined,
) => {
  const { expect } = runner
  /** Runs `fn` with a second handle when one can be opened, else with the same handle twice. */
  const withPair = (storage: Storage, fn: (other: Storage) => Promise<void>) =>
    createPeer ? createPeer(storage).then((peer) => fn(peer).finally(() => peer.close())) : fn(storage)

  runner.it('offers an extra exactly when it declares the capability', () =>
    withStorage(async (storage) => {
      const { leaderLocks = false, sharedTokenBuckets = false } = storage.capabilities
      expect(typeof storage.tryLeaderLock === 'function').toBe(leaderLocks)
      expect(typeof storage.takeToken === 'function').toBe(sharedTokenBuckets)
    }),
  )

  runner.describe('leader locks', () => {
    const check = (name: string, fn: (storage: Storage) => Promise<void>) =>
      runner.it(name, () =>
        withStorage(async (storage) => {
          if (!storage.capabilities.leaderLocks) return
          await fn(storage)
        }),
      )
    check('elects one holder per name; a released lock can be taken again', async (storage) => {
      await withPair(storage, async (other) => {
        const held = await storage.tryLeaderLock!('conformance:leader')
        expect(held !== undefined).toBe(true)
        expect(held!.signal.aborted).toBe(false)
        expect(await other.tryLeaderLock!('conformance:leader')).toBeUndefined()
        const elsewhere = await other.tryLeaderLock!('conformance:other')
        expect(elsewhere !== undefined).toBe(true)
        await held!.release()
        let next = await other.tryLeaderLock!('conformance:leader')
        for (let waited = 0; !next && waited < 2_000; waited += 50) {
          await sleep(50)
          next = await other.tryLeaderLock!('conformance:leader')
        }
        expect(next !== undefined).toBe(true)
        await next!.release()
        await elsewhere!.release()
      })
    })
  })

  runner.describe('shared token buckets', () => {
    const check = (name: string, fn: (storage: Storage) => Promise<void>) =>
      runner.it(name, () =>
        withStorage(async (storage) => {
          if (!storage.capabilities.sharedTokenBuckets) return
          await fn(storage)
        }),
      )
    check(
      'gives a bucket’s capacity across handles, then refuses with a wait of whole seconds',
      async (storage) => {
        await withPair(storage, async (other) => {
          const limit = { capacity: 3, refillPerSecond: 0.01 }
          const takes = []
          for (let i = 0; i < 4; i++)
            takes.push(await (i % 2 ? other : storage).takeToken!('conformance:a', limit))
          expect(takes.slice(0, 3)).toEqual([{ ok: true }, { ok: true }, { ok: true }])
          const refused = takes[3]!
          expect(refused.ok).toBe(false)
          if (!refused.ok) {
            expect(Number.isInteger(refused.retryAfterSeconds) && refused.retryAfterSeconds >= 1).toBe(true)
          }
          // Another key has its own bucket.
          expect(await other.takeToken!('conformance:b', limit)).toEqual({ ok: true })
        })
      },
    )
    check('hands out exactly the capacity to concurrent takes', async (storage) => {
      await withPair(storage, async (other) => {
        const limit = { capacity: 7, refillPerSecond: 0.01 }
        const takes = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            (i % 2 ? other : storage).takeToken!('conformance:burst', limit),
          ),
        )
        expect(takes.filter((take) => take.ok)).toHaveLength(7)
      })
    })
    check('refills at its rate', async (storage) => {
      const limit = { capacity: 1, refillPerSecond: 10 }
      expect(await storage.takeToken!('conformance:refill', limit)).toEqual({ ok: true })
      expect((await storage.takeToken!('conformance:refill', limit)).ok).toBe(false)
      await sleep(250)
      expect(await storage.takeToken!('conformance:refill', limit)).toEqual({ ok: true })
    })
  })

  runner.describe('unsynced access', () => {
    const check = (name: string, fn: (storage: Storage) => Promise<void>) =>
      runner.it(name, () =>
        withStorage(async (storage) => {
          if (!storage.unsynced) return
          await fn(storage)
        }),
      )
    check(
      'commits as a transaction does, seen at once by its reader and by transactions',
      async (storage) => {
        const unsynced = storage.unsynced!
        const seen: string[] = []
        const off = storage.onEvents((events) => seen.push(...events.map((event) => event.id)))
        const { result, synced } = await unsynced.commit(async (tx) => {
          await tx.insert('conformance_unsynced', { id: 'u1', n: 1 })
          tx.appendEvent('conformance:unsynced', {
            id: 'e1',
            type: 'made',
            timestamp: '2026-01-01T00:00:00.000Z',
            data: {},
          })
          return 'done'
        })
        expect(result).toBe('done')
        expect(await unsynced.reader.get('conformance_unsynced', 'u1')).toMatchObject({ n: 1 })
        expect(await unsynced.reader.count('conformance_unsynced')).toBe(1)
        const read = await storage.transaction(['k'], (tx) => tx.get('conformance_unsynced', 'u1'))
        expect(read).toMatchObject({ n: 1 })
        await synced
        await unsynced.synced()
        expect(await storage.query('conformance_unsynced')).toHaveLength(1)
        expect(seen).toEqual(['e1'])
        off()
        // A throw commits nothing.
        await expect(
          unsynced.commit(async (tx) => {
            await tx.put('conformance_unsynced', { id: 'u2', n: 2 })
            throw new Error('no')
          }),
        ).rejects.toMatchObject({ message: 'no' })
        expect(await storage.get('conformance_unsynced', 'u2')).toBeUndefined()
      },
    )
  })
}
