import type { Storage } from '../../storage/types.js'
import { type StorageSuiteContext, sleep, yieldTurn } from './storageSuiteContext.js'

/** One read-increment-write under `key`, with a yield between read and write to invite races. */
export const incrementUnderLock = (storage: Storage, key: string, id = 'counter') =>
  storage.transaction([key], async (tx) => {
    const current = await tx.get('counters', id)
    await yieldTurn()
    await tx.put('counters', { id, value: Number(current?.value ?? 0) + 1 })
  })

/** The atomicity primitive under concurrent callers. */
export const storageConcurrencyTests = ({ runner, withStorage }: StorageSuiteContext, n: number) => {
  const { it, expect } = runner

  it(`loses no update among ${n} concurrent read-increment-writes under one lock key`, () =>
    withStorage(async (storage) => {
      await Promise.all(Array.from({ length: n }, () => incrementUnderLock(storage, 'lock:counter')))
      expect(await storage.get('counters', 'counter')).toEqual({ id: 'counter', value: n })
    }))

  it('runs callers of one key one at a time', () =>
    withStorage(async (storage) => {
      let inside = 0
      let most = 0
      await Promise.all(
        Array.from({ length: 20 }, () =>
          storage.transaction(['one'], async () => {
            inside += 1
            most = Math.max(most, inside)
            await sleep(1)
            inside -= 1
          }),
        ),
      )
      expect(most).toBe(1)
    }))

  it('does not hold up key B while a transaction waits on key A', () =>
    withStorage(async (storage) => {
      let release!: () => void
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      const holdingA = storage.transaction(['A'], async () => gate)
      await sleep(5)
      const onB = await Promise.race([
        storage.transaction(['B'], async () => 'b finished'),
        sleep(2_000).then(() => 'b blocked'),
      ])
      const waitingOnA = storage.transaction(['A'], async () => 'a second')
      const raced = await Promise.race([waitingOnA, sleep(50).then(() => 'a still waiting')])
      release()
      await holdingA
      expect(onB).toBe('b finished')
      expect(raced).toBe('a still waiting')
      expect(await waitingOnA).toBe('a second')
    }))

  it('releases the lock after fn throws', () =>
    withStorage(async (storage) => {
      await expect(
        storage.transaction(['k'], async () => {
          throw Object.assign(new Error('boom'), { code: 'test_boom' })
        }),
      ).rejects.toMatchObject({ code: 'test_boom' })
      const next = await Promise.race([
        storage.transaction(['k'], async () => 'ran'),
        sleep(2_000).then(() => 'lock leaked'),
      ])
      expect(next).toBe('ran')
    }))

  it('does not deadlock when transactions take overlapping keys in different orders', () =>
    withStorage(async (storage) => {
      const pairs = [
        ['x', 'y'],
        ['y', 'x'],
        ['y', 'z'],
        ['z', 'x'],
      ] as const
      const work = Array.from({ length: 40 }, (_, i) => {
        const keys = pairs[i % pairs.length]!
        return storage.transaction([...keys], async (tx) => {
          const current = await tx.get('counters', 'shared')
          await yieldTurn()
          await tx.put('counters', { id: 'shared', value: Number(current?.value ?? 0) + 1 })
        })
      })
      const outcome = await Promise.race([
        Promise.all(work).then(() => 'done'),
        sleep(5_000).then(() => 'deadlock'),
      ])
      expect(outcome).toBe('done')
      // Any two of these key sets share a key, so the increments were serialized too.
      expect(await storage.get('counters', 'shared')).toEqual({ id: 'shared', value: 40 })
    }))
}
