import { type StorageSuiteContext, sleep } from './storageSuiteContext.js'

class Rollback extends Error {
  readonly code = 'test_rollback'
}

/** Atomic commit, rollback on throw, read-your-writes. */
export const storageTransactionTests = ({ runner, withStorage }: StorageSuiteContext) => {
  const { it, expect } = runner

  it('returns the value of fn', () =>
    withStorage(async (storage) => {
      expect(await storage.transaction(['k'], async () => 'done')).toBe('done')
    }))

  it('applies nothing when fn throws, and rethrows its error', () =>
    withStorage(async (storage) => {
      await storage.transaction([], async (tx) => tx.put('things', { id: 'kept', v: 1 }))
      await expect(
        storage.transaction(['k'], async (tx) => {
          await tx.put('things', { id: 'kept', v: 2 })
          await tx.insert('things', { id: 'new' })
          await tx.delete('things', 'kept')
          tx.appendEvent('s', { id: 'e1', type: 't', timestamp: '2026-01-01T00:00:00.000Z', data: {} })
          throw new Rollback('rolled back')
        }),
      ).rejects.toMatchObject({ code: 'test_rollback' })
      expect(await storage.get('things', 'kept')).toEqual({ id: 'kept', v: 1 })
      expect(await storage.get('things', 'new')).toBeUndefined()
      expect(await storage.readEvents('s')).toEqual([])
    }))

  it('rolls back the earlier writes of a transaction whose insert conflicts', () =>
    withStorage(async (storage) => {
      await storage.transaction([], async (tx) => tx.insert('things', { id: 'taken' }))
      await expect(
        storage.transaction([], async (tx) => {
          await tx.put('things', { id: 'other' })
          await tx.insert('things', { id: 'taken' })
        }),
      ).rejects.toMatchObject({ code: 'storage_conflict' })
      expect(await storage.get('things', 'other')).toBeUndefined()
    }))

  it('reads its own writes inside the transaction, hidden from others until commit', () =>
    withStorage(async (storage) => {
      await storage.transaction([], async (tx) => {
        await tx.put('things', { id: 'a', v: 1 })
        await tx.put('things', { id: 'b', v: 2 })
      })
      let release!: () => void
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      let inside: unknown[] = []
      const running = storage.transaction(['k'], async (tx) => {
        await tx.put('things', { id: 'a', v: 10 })
        await tx.insert('things', { id: 'c', v: 3 })
        await tx.delete('things', 'b')
        inside = [
          await tx.get('things', 'a'),
          await tx.get('things', 'b'),
          (await tx.query('things')).map((row) => row.id),
          await tx.count('things', { where: { v: [3, 10] } }),
        ]
        await gate
      })
      await sleep(10)
      // Uncommitted writes must not be visible outside the transaction.
      expect(await storage.get('things', 'a')).toEqual({ id: 'a', v: 1 })
      expect(await storage.get('things', 'c')).toBeUndefined()
      release()
      await running
      expect(inside).toEqual([{ id: 'a', v: 10 }, undefined, ['a', 'c'], 2])
      expect((await storage.query('things')).map((row) => row.id)).toEqual(['a', 'c'])
    }))

  it('lets a transaction delete then insert the same id', () =>
    withStorage(async (storage) => {
      await storage.transaction([], async (tx) => tx.insert('things', { id: 'a', v: 1 }))
      await storage.transaction([], async (tx) => {
        await tx.delete('things', 'a')
        await tx.insert('things', { id: 'a', v: 2 })
      })
      expect(await storage.get('things', 'a')).toEqual({ id: 'a', v: 2 })
    }))

  it('commits a transaction started inside another on its own (transactions do not nest)', () =>
    withStorage(async (storage) => {
      await expect(
        storage.transaction(['wallet:outer'], async () => {
          await storage.transaction([], async (tx) => tx.put('steps', { id: 'persisted-step' }))
          expect(await storage.get('steps', 'persisted-step')).toEqual({ id: 'persisted-step' })
          throw new Rollback('outer failed')
        }),
      ).rejects.toMatchObject({ code: 'test_rollback' })
      expect(await storage.get('steps', 'persisted-step')).toEqual({ id: 'persisted-step' })
    }))
}
