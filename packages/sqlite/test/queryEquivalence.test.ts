import { type QueryOptions, queryRecords, type StoredRecord } from '@agentwallet/core'
import { sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDatabases } from './tempDatabase.js'

// Values SQLite would confuse if it compared them naively: true/1/"1", null/missing, objects vs
// strings, integers vs reals, and strings with quotes, escapes and non-ASCII characters.
const values: unknown[] = [
  true,
  false,
  1,
  0,
  '1',
  '0',
  'true',
  null,
  undefined,
  2.5,
  -3,
  1e21,
  'a',
  'B',
  'b"q',
  'back\\slash',
  'line\nbreak',
  'é',
  '日本',
  '😀',
  '{"x":1}',
  // One object value only: queryRecords orders distinct objects/arrays by their JS string forms
  // ("[object Object]", "1,2"), which SQL does not copy; here they all tie and fall back to id.
  { x: 1 },
  '',
  '2026-01-01T00:00:00.000Z',
  '2026-01-02T00:00:00.000Z',
]

const records: StoredRecord[] = values.flatMap((v, i) =>
  values.slice(0, 6).map((w, j) => {
    const record: StoredRecord = { id: `r${String(i).padStart(2, '0')}-${j}`, other: w }
    if (v !== undefined) record.f = v
    return record
  }),
)

const scalars = values.filter(
  (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v),
) as Array<string | number | boolean | null>

const queries: QueryOptions[] = [
  {},
  ...scalars.map((v) => ({ where: { f: v } })),
  { where: { f: [true, 1, 'a', null] } },
  { where: { f: ['1', 0] } },
  { where: { f: [] } },
  { where: { f: 1, other: true } },
  { where: { id: 'r01-1' } },
  { where: { id: ['r01-1', 'r02-2', 7] } },
  { where: { id: 1 } },
  { where: { missing: null } },
  { where: { missing: 'x' } },
  ...scalars.flatMap((v) => [
    { range: { field: 'f', gte: v } },
    { range: { field: 'f', lt: v } },
    { range: { field: 'f', gte: v, lt: 'z' } },
  ]),
  { range: { field: 'f', gte: -10, lt: 2 } },
  { range: { field: 'f', gte: false, lt: true } },
  { range: { field: 'id', gte: 'r05', lt: 'r10' } },
  { range: { field: 'id', gte: 3 } },
  { orderBy: 'f' },
  { orderBy: 'f', order: 'desc' },
  { orderBy: 'other', order: 'desc', limit: 7, offset: 3 },
  { orderBy: 'missing', limit: 5 },
  { orderBy: 'id', order: 'desc', offset: 10, limit: 4 },
  { where: { other: [true, false] }, orderBy: 'f', order: 'desc', limit: 12, offset: 2 },
  { range: { field: 'f', gte: 'a' }, orderBy: 'f', limit: 3 },
  { limit: 0 },
  { limit: -1 },
  { offset: 1000 },
]

/** Checks the SQL translation against the reference semantics of queryRecords, query by query. */
describe('sqliteStorage queries match queryRecords', () => {
  const temp = tempDatabases()
  const storage = sqliteStorage({
    filename: temp.next(),
    schema: { things: { indexes: ['f', 'other', 'createdAt'] } },
  })

  beforeAll(async () => {
    await storage.transaction([], async (tx) => {
      for (const record of records) await tx.put('things', record)
    })
  })
  afterAll(async () => {
    await storage.close()
    temp.cleanup()
  })

  it.each(queries.map((query) => [JSON.stringify(query), query] as const))('%s', async (_, query) => {
    const ids = (found: StoredRecord[]) => found.map((record) => record.id)
    const expected = queryRecords(records, query)
    expect(ids(await storage.query('things', query))).toEqual(ids(expected))
    const filter = { where: query.where, range: query.range }
    expect(await storage.count('things', filter)).toBe(queryRecords(records, filter).length)
  })

  it('gives the same answers inside a transaction with buffered writes over them', async () => {
    const changed = records.slice(0, 40).map((record, i) => ({ ...record, f: i % 3 === 0 ? 'a' : i }))
    const removed = records.slice(40, 60).map((record) => record.id)
    const added = [{ id: 'new-1', f: 'a' }, { id: 'new-2', f: 1 }, { id: 'new-3' }]
    const expectedAll = [...changed, ...records.slice(60), ...added] as StoredRecord[]
    await expect(
      storage.transaction([], async (tx) => {
        for (const record of changed) await tx.put('things', record)
        for (const id of removed) await tx.delete('things', id)
        for (const record of added) await tx.insert('things', record)
        for (const query of queries) {
          const found = (await tx.query('things', query)).map((record) => record.id)
          expect([JSON.stringify(query), found]).toEqual([
            JSON.stringify(query),
            queryRecords(expectedAll, query).map((record) => record.id),
          ])
          const filter = { where: query.where, range: query.range }
          expect(await tx.count('things', filter)).toBe(queryRecords(expectedAll, filter).length)
        }
        throw Object.assign(new Error('roll back'), { code: 'test_rollback' })
      }),
    ).rejects.toMatchObject({ code: 'test_rollback' })
    expect(await storage.count('things')).toBe(records.length)
  })
})
