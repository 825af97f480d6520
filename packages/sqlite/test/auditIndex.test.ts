import { sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { tempDatabases } from './tempDatabase.js'

const temp = tempDatabases()
const storage = sqliteStorage({ filename: temp.next(), synchronous: 'normal' })
const total = 5_000

beforeAll(async () => {
  for (let start = 0; start < total; start += 1_000)
    await storage.transaction([], async (tx) => {
      for (let i = start; i < start + 1_000; i++)
        tx.appendEvent('audit:t', {
          id: `aud_${i}`,
          type: 'audit.x',
          timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1_000).toISOString(),
          data: { i },
          keys: [i % 100 === 0 ? 'kind:rare' : 'kind:common', `walletId:w${i % 50}`],
        })
    })
})
afterAll(async () => {
  await storage.close()
  temp.cleanup()
})

it('selects an audit stream’s events by key from the event_keys index, never scanning the stream', async () => {
  const options = { key: 'kind:rare', after: 0, limit: 100 }
  const plan = storage.explainReadEvents('audit:t', options).join('\n')
  expect(plan).toMatch(/SEARCH k USING PRIMARY KEY \(stream=\? AND key=\? AND seq>\?\)/)
  expect(plan).toMatch(/SEARCH e USING INDEX sqlite_autoindex_events_1 \(stream=\? AND seq=\?\)/)
  expect(plan).not.toMatch(/SCAN|TEMP B-TREE/)
  const found = await storage.readEvents('audit:t', options)
  expect(found.map((event) => event.seq)).toEqual(Array.from({ length: 50 }, (_, n) => n * 100 + 1))
  // With a time range too, the key still drives.
  const ranged = { ...options, from: '2026-01-01T00:10:00.000Z', to: '2026-01-01T00:20:00.000Z' }
  expect(storage.explainReadEvents('audit:t', ranged).join('\n')).not.toMatch(/SCAN/)
  expect((await storage.readEvents('audit:t', ranged)).map((event) => event.seq)).toEqual([
    601, 701, 801, 901, 1001, 1101,
  ])
})
