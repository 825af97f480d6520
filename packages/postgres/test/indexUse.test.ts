import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { testSchemas, testUrl } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

/** Rows in the table; AGENTWALLET_TEST_PG_ROWS=1000000 reproduces the 1M-transaction case of the README. */
const rows = Number(process.env.AGENTWALLET_TEST_PG_ROWS ?? 20_000)

describe('postgresStorage indexes', () => {
  it(
    `reads one wallet's newest 50 transactions among ${rows} with a backward index scan, no sort`,
    async () => {
      const storage = await schemas.storage({ poolSize: 2 })
      const client = new pg.Client({ connectionString: testUrl })
      await client.connect()
      try {
        // Generated in SQL: inserting this many through transactions would only test the network.
        await client.query(
          `INSERT INTO "${storage.schema}".c_transactions (id, data)
         SELECT 'tx' || lpad(n::text, 8, '0'), jsonb_build_object(
           'id', 'tx' || lpad(n::text, 8, '0'),
           'walletId', 'w' || (n % 200),
           'status', (ARRAY['queued', 'submitted', 'confirmed'])[1 + n % 3],
           'chain', 'base',
           'createdAt', to_char(timestamp '2026-01-01' + n * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
         FROM generate_series(1, $1::int) AS n`,
          [rows],
        )
        await client.query(`ANALYZE "${storage.schema}".c_transactions`)
        const query = { where: { walletId: 'w7' }, orderBy: 'createdAt', order: 'desc', limit: 50 } as const
        const plan = (await storage.explainQuery('transactions', query)).join('\n')
        expect(plan).toMatch(/Index Scan Backward using "?aw_transactions_walletId_createdAt/)
        expect(plan).not.toMatch(/Sort|Seq Scan/)
        const found = await storage.query('transactions', query)
        expect(found).toHaveLength(50)
        expect(found.every((tx) => tx.walletId === 'w7')).toBe(true)
        expect(found.map((tx) => tx.createdAt)).toEqual(
          found
            .map((tx) => tx.createdAt)
            .sort()
            .reverse(),
        )

        const ranged = await storage.explainQuery('transactions', {
          where: { walletId: 'w7' },
          range: { field: 'createdAt', gte: '2026-01-01T01:00:00.000Z', lt: '2026-01-01T02:00:00.000Z' },
          orderBy: 'createdAt',
          // A page, as every list reads: without a limit, the 18 rows of this wallet's hour may be
          // fetched by a bitmap scan and sorted, which the planner rightly finds as cheap.
          limit: 10,
        })
        // Either index fits (the planner picks by the range's width); neither needs a sort.
        expect(ranged.join('\n')).toMatch(/Index (Only )?Scan using "?aw_transactions_(walletId_)?createdAt/)
        expect(ranged.join('\n')).not.toMatch(/Sort|Seq Scan/)
      } finally {
        await client.end()
        await storage.close()
      }
    },
    60_000 + rows / 4,
  )
})
