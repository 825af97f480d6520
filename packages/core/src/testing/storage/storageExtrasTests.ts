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
}
