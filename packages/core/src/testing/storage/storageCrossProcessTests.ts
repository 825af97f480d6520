import type { Storage, StoredEvent } from '../../storage/types.js'
import { testOrSkip } from '../testRunner.js'
import { incrementUnderLock } from './storageConcurrencyTests.js'
import { type StorageSuiteContext, sleep } from './storageSuiteContext.js'

/** Locks and events across two handles on one backend, standing in for two processes. */
export const storageCrossProcessTests = (
  { runner, withStorage }: StorageSuiteContext,
  createPeer: (storage: Storage) => Promise<Storage>,
  which: { locks?: string | undefined; events?: string | undefined },
  n: number,
) => {
  const { expect } = runner
  const skipIt = (name: string, reason: string | undefined, fn: () => Promise<void>) =>
    testOrSkip(runner, name, reason, fn)

  skipIt(`loses no update among ${n} increments split across two handles`, which.locks, () =>
    withStorage(async (storage) => {
      expect(storage.capabilities.crossProcessLocks).toBe(true)
      const peer = await createPeer(storage)
      try {
        await Promise.all(
          Array.from({ length: n }, (_, i) =>
            incrementUnderLock(i % 2 === 0 ? storage : peer, 'lock:counter'),
          ),
        )
        expect(await storage.get('counters', 'counter')).toEqual({ id: 'counter', value: n })
      } finally {
        await peer.close()
      }
    }),
  )

  skipIt('reports events committed through another handle', which.events, () =>
    withStorage(async (storage) => {
      expect(storage.capabilities.crossProcessEvents).toBe(true)
      const peer = await createPeer(storage)
      try {
        const seen: StoredEvent[] = []
        const unsubscribe = storage.onEvents((events) => seen.push(...events))
        await peer.transaction([], async (tx) =>
          tx.appendEvent('s', { id: 'remote', type: 't', timestamp: '2026-01-01T00:00:00.000Z', data: {} }),
        )
        for (let waited = 0; seen.length === 0 && waited < 5_000; waited += 25) await sleep(25)
        unsubscribe()
        expect(seen.map((e) => [e.id, e.seq])).toEqual([['remote', 1]])
      } finally {
        await peer.close()
      }
    }),
  )
}
