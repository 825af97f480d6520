import type { StorageSuiteContext } from './storageSuiteContext.js'

/** CRUD, deep-copy isolation, queries and the insert conflict code. */
export const storageRecordTests = ({ runner, withStorage }: StorageSuiteContext) => {
  const { it, expect } = runner

  it('puts, gets, replaces and deletes a record', () =>
    withStorage(async (storage) => {
      await storage.transaction([], async (tx) => tx.put('things', { id: 'a', n: 1, tags: ['x'] }))
      expect(await storage.get('things', 'a')).toEqual({ id: 'a', n: 1, tags: ['x'] })
      expect(await storage.get('things', 'missing')).toBeUndefined()
      await storage.transaction([], async (tx) => tx.put('things', { id: 'a', n: 2 }))
      expect(await storage.get('things', 'a')).toEqual({ id: 'a', n: 2 })
      expect(await storage.transaction([], async (tx) => tx.delete('things', 'a'))).toBe(true)
      expect(await storage.transaction([], async (tx) => tx.delete('things', 'a'))).toBe(false)
      expect(await storage.get('things', 'a')).toBeUndefined()
    }))

  it('keeps collections apart', () =>
    withStorage(async (storage) => {
      await storage.transaction([], async (tx) => {
        await tx.put('left', { id: 'same', side: 'left' })
        await tx.put('right', { id: 'same', side: 'right' })
      })
      expect(await storage.get('left', 'same')).toEqual({ id: 'same', side: 'left' })
      expect(await storage.count('right')).toBe(1)
    }))

  it('round-trips nested JSON documents exactly', () =>
    withStorage(async (storage) => {
      const record = {
        id: 'doc',
        amount: '1000000000000000000000',
        nested: { list: [1, 'two', null, true] },
        empty: {},
      }
      await storage.transaction([], async (tx) => tx.put('docs', record))
      expect(await storage.get('docs', 'doc')).toEqual(record)
    }))

  it('isolates stored records from the objects passed in and handed out', () =>
    withStorage(async (storage) => {
      const input = { id: 'a', nested: { value: 1 } }
      await storage.transaction([], async (tx) => tx.put('things', input))
      input.nested.value = 99
      const first = await storage.get('things', 'a')
      first!.nested = { value: 42 }
      const [listed] = await storage.query('things')
      listed!.nested = { value: 43 }
      expect(await storage.get('things', 'a')).toEqual({ id: 'a', nested: { value: 1 } })
    }))

  it('rejects an insert of an existing id with storage_conflict and keeps the original', () =>
    withStorage(async (storage) => {
      await storage.transaction([], async (tx) => tx.insert('things', { id: 'a', v: 1 }))
      await expect(
        storage.transaction([], async (tx) => tx.insert('things', { id: 'a', v: 2 })),
      ).rejects.toMatchObject({ code: 'storage_conflict' })
      expect(await storage.get('things', 'a')).toEqual({ id: 'a', v: 1 })
    }))

  it('queries with equality, IN, null, range, order, ties by id, limit and offset', () =>
    withStorage(async (storage) => {
      const rows = [
        { id: 'r1', status: 'queued', at: '2026-01-01', n: 3, note: null },
        { id: 'r2', status: 'submitted', at: '2026-01-02', n: 1, note: 'x' },
        { id: 'r3', status: 'queued', at: '2026-01-03', n: 2 },
        { id: 'r4', status: 'failed', at: '2026-01-03', n: 10, note: 'y' },
        { id: 'r5', status: 'queued', at: '2026-01-05', n: 20, note: 'z' },
      ]
      await storage.transaction([], async (tx) => {
        for (const row of rows) await tx.put('rows', row)
      })
      const ids = (found: Array<{ id: string }>) => found.map((row) => row.id)
      expect(ids(await storage.query('rows'))).toEqual(['r1', 'r2', 'r3', 'r4', 'r5'])
      expect(ids(await storage.query('rows', { where: { status: 'queued' } }))).toEqual(['r1', 'r3', 'r5'])
      expect(ids(await storage.query('rows', { where: { status: ['failed', 'submitted'] } }))).toEqual([
        'r2',
        'r4',
      ])
      expect(ids(await storage.query('rows', { where: { status: 'queued', n: 2 } }))).toEqual(['r3'])
      expect(ids(await storage.query('rows', { where: { note: null } }))).toEqual(['r1', 'r3'])
      expect(ids(await storage.query('rows', { where: { status: [] } }))).toEqual([])
      const range = { field: 'at', gte: '2026-01-02', lt: '2026-01-05' }
      expect(ids(await storage.query('rows', { range }))).toEqual(['r2', 'r3', 'r4'])
      expect(ids(await storage.query('rows', { range: { field: 'n', gte: 2, lt: 20 } }))).toEqual([
        'r1',
        'r3',
        'r4',
      ])
      expect(ids(await storage.query('rows', { orderBy: 'n' }))).toEqual(['r2', 'r3', 'r1', 'r4', 'r5'])
      expect(ids(await storage.query('rows', { orderBy: 'at', order: 'desc' }))).toEqual([
        'r5',
        'r4',
        'r3',
        'r2',
        'r1',
      ])
      expect(ids(await storage.query('rows', { orderBy: 'at', order: 'asc' }))).toEqual([
        'r1',
        'r2',
        'r3',
        'r4',
        'r5',
      ])
      expect(ids(await storage.query('rows', { orderBy: 'n', limit: 2, offset: 1 }))).toEqual(['r3', 'r1'])
      expect(ids(await storage.query('rows', { offset: 4, limit: 10 }))).toEqual(['r5'])
      expect(
        await storage.count('rows', { where: { status: 'queued' }, range: { field: 'n', gte: 3 } }),
      ).toBe(2)
      expect(await storage.count('unknown_collection')).toBe(0)
      expect(await storage.query('unknown_collection')).toEqual([])
    }))
}
