import pg from 'pg'
import { afterAll, expect, it } from 'vitest'
import { testSchemas, testUrl } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

const rows = 20_000

it(`selects an audit stream’s events by key among ${rows} from the event_keys index, never scanning the stream`, async () => {
  const storage = await schemas.storage({ poolSize: 2 })
  const client = new pg.Client({ connectionString: testUrl })
  await client.connect()
  try {
    // Generated in SQL: appending this many through transactions would only test the network.
    await client.query(
      `INSERT INTO "${storage.schema}".events (stream, seq, id, type, timestamp, data)
       SELECT 'audit:t', n, 'aud_' || n, 'audit.x', to_char(timestamp '2026-01-01' + n * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '{}'::jsonb
       FROM generate_series(1, $1::int) AS n`,
      [rows],
    )
    await client.query(
      `INSERT INTO "${storage.schema}".event_keys (stream, key, seq)
       SELECT 'audit:t', CASE WHEN n % 100 = 1 THEN 'kind:rare' ELSE 'kind:common' END, n FROM generate_series(1, $1::int) AS n`,
      [rows],
    )
    await client.query(`ANALYZE "${storage.schema}".events`)
    await client.query(`ANALYZE "${storage.schema}".event_keys`)
    const options = { key: 'kind:rare', after: 0, limit: 100 }
    const plan = (await storage.explainReadEvents('audit:t', options)).join('\n')
    expect(plan).toMatch(/Index (Only )?Scan using event_keys_pkey/)
    expect(plan).not.toMatch(/Seq Scan|Sort/)
    const found = await storage.readEvents('audit:t', options)
    expect(found.map((event) => event.seq)).toEqual(Array.from({ length: 100 }, (_, n) => n * 100 + 1))
  } finally {
    await client.end()
    await storage.close()
  }
})
