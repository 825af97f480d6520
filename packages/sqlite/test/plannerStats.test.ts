import { sqliteStorage } from '@agentwallet/sqlite'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { compileWhere } from '../src/compileQuery.js'
import { collectionTable } from '../src/sqlText.js'
import { tempDatabases } from './tempDatabase.js'

const temp = tempDatabases()
afterAll(() => temp.cleanup())

describe('planner statistics', () => {
  it('count by an indexed field uses its index once the tables have grown', async () => {
    const file = temp.next()
    const storage = sqliteStorage({ filename: file, synchronous: 'normal' })
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
      const { sql, params } = compileWhere({ where: { walletId: 'w7' } })
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM ${collectionTable('transactions')} WHERE ${sql}`)
        .all(...params)
      expect(JSON.stringify(plan)).toMatch(/aw_transactions_walletId/)
    } finally {
      db.close()
    }
  })
})
