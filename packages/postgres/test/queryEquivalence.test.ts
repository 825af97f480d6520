import { type QueryOptions, queryRecords, type Scalar, type StoredRecord } from '@agentwallet/core'
import { afterAll, describe, expect, it } from 'vitest'
import { testSchemas } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

// A small deterministic generator, so a failure names a reproducible case.
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
  return seed / 2_147_483_648
}

const values: unknown[] = [
  null,
  undefined,
  true,
  false,
  0,
  1,
  -1,
  2.5,
  10,
  1e21,
  '',
  '1',
  'a',
  'B',
  'b',
  'é',
  '2026-01-01T00:00:00.000Z',
  '2026-01-02T00:00:00.000Z',
  // Objects and arrays compare equal to each other here (ties by id); queryRecords compares their
  // String() forms, which SQL does not rebuild. One kind keeps the two in step; see the README.
  { nested: 1 },
  { other: [1, 2] },
]
const scalars = values.filter(
  (value): value is Scalar => value !== undefined && typeof value !== 'object',
) as Scalar[]

describe('postgresStorage queries match queryRecords', () => {
  it('gives the same results as queryRecords over mixed-type fields for 400 random queries', async () => {
    const storage = await schemas.storage({ poolSize: 2 })
    try {
      const next = random(42)
      const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!
      const records: StoredRecord[] = Array.from({ length: 120 }, (_, i) => {
        const record: StoredRecord = { id: `r${String(i).padStart(3, '0')}${pick(['', 'x', 'Z'])}` }
        for (const field of ['a', 'b']) {
          const value = pick(values)
          if (value !== undefined) record[field] = value
        }
        return record
      })
      await storage.transaction([], async (tx) => {
        for (const record of records) await tx.put('mixed', record)
      })
      for (let i = 0; i < 400; i++) {
        const options: QueryOptions = {}
        if (next() < 0.5)
          options.where = {
            [pick(['a', 'b', 'id'])]: next() < 0.3 ? [pick(scalars), pick(scalars)] : pick(scalars),
          }
        if (next() < 0.5) {
          const range: NonNullable<QueryOptions['range']> = { field: pick(['a', 'b', 'id']) }
          if (next() < 0.7) range.gte = pick(scalars)
          if (next() < 0.7) range.lt = pick(scalars)
          options.range = range
        }
        options.orderBy = pick(['a', 'b', 'id', undefined])
        options.order = pick(['asc', 'desc', undefined] as const)
        if (next() < 0.4) options.limit = Math.floor(next() * 20)
        if (next() < 0.3) options.offset = Math.floor(next() * 20)
        const expected = queryRecords(records, options).map((record) => record.id)
        const found = (await storage.query('mixed', options)).map((record) => record.id)
        expect({ options, found }).toEqual({ options, found: expected })
        expect(await storage.count('mixed', options)).toBe(
          queryRecords(records, { where: options.where, range: options.range }).length,
        )
      }
      // Inside a transaction the buffered writes overlay the committed rows, pages included.
      await storage.transaction(['overlay'], async (tx) => {
        const mine = records.map((record) => ({ ...record }))
        for (let i = 0; i < 30; i++) {
          const target = pick(mine)
          if (next() < 0.3) {
            await tx.delete('mixed', target.id)
            mine.splice(mine.indexOf(target), 1)
          } else {
            target.a = pick(scalars)
            await tx.put('mixed', target)
          }
        }
        for (let i = 0; i < 100; i++) {
          const options: QueryOptions = {
            where: next() < 0.5 ? { b: [pick(scalars), pick(scalars)] } : undefined,
            orderBy: pick(['a', 'id']),
            order: pick(['asc', 'desc'] as const),
            limit: Math.floor(next() * 15),
            offset: Math.floor(next() * 15),
          }
          const expected = queryRecords(mine, options).map((record) => record.id)
          expect({ options, found: (await tx.query('mixed', options)).map((record) => record.id) }).toEqual({
            options,
            found: expected,
          })
          expect(await tx.count('mixed', options)).toBe(queryRecords(mine, { where: options.where }).length)
        }
      })
    } finally {
      await storage.close()
    }
  })
})
