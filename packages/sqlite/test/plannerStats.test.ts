import { sqliteStorage } from '@agentwallet/sqlite'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { compileWhere } from '../src/compileQuery.js'
import { tempDatabases } from './tempDatabase.js'

const temp = tempDatabases()
afterAll(() => temp.cleanup())

describe('planner statistics', () => {
  it('count by an indexed field uses its index even when the sample sees one collection only', async () => {
    const file = temp.next()
    const storage = sqliteStorage({ filename: file, synchronous: 'normal' })
    // The primary key sorts by collection: a sampled ANALYZE reads only 'aaa_audit' rows first.
    for (const collection of ['aaa_audit', 'transactions']) {
      for (let start = 0; start < 4_000; start += 1_000) {
        await storage.transaction([], async (tx) => {
          for (let i = start; i < start + 1_000; i++) {
            await tx.put(collection, {
              id: `${collection}-${String(i).padStart(6, '0')}`,
              walletId: `w${i % 400}`,
              createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1_000).toISOString(),
            })
          }
        })
      }
    }
    expect(await storage.count('transactions', { where: { walletId: 'w7' } })).toBe(10)
    await storage.close()

    const db = new Database(file, { readonly: true })
    try {
      const stat = db
        .prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'sqlite_autoindex_records_1'")
        .pluck()
        .get()
      const [rows, perCollection] = String(stat).split(' ').map(Number)
      expect(perCollection).toBe(Math.ceil(rows! / 2))
      const { sql, params } = compileWhere('transactions', { where: { walletId: 'w7' } })
      const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM records WHERE ${sql}`).all(...params)
      expect(JSON.stringify(plan)).toMatch(/aw_transactions_walletId/)
    } finally {
      db.close()
    }
  })
})
