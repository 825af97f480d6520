import { sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDatabases } from './tempDatabase.js'

const temp = tempDatabases()
const storage = sqliteStorage({ filename: temp.next(), synchronous: 'normal' })
const wallets = 50
const total = 5_000

beforeAll(async () => {
  // Several commits, so the planner statistics are refreshed as the table grows (plannerStats).
  for (let start = 0; start < total; start += 1_000) {
    await storage.transaction([], async (tx) => {
      for (let i = start; i < start + 1_000; i++) {
        // Partial records (only the indexed fields): written untyped.
        await tx.put<string>('transactions', {
          id: `tx-${String(i).padStart(6, '0')}`,
          walletId: `w${i % wallets}`,
          status: i % 10 === 0 ? 'submitted' : 'confirmed',
          hash: `0x${i.toString(16).padStart(64, '0')}`,
          chain: 'devnet',
          createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1_000).toISOString(),
        })
      }
    })
  }
})
afterAll(async () => {
  await storage.close()
  temp.cleanup()
})

describe('sqliteStorage uses its indexes', () => {
  it("reads one wallet's newest 50 transactions from an index, without sorting", async () => {
    const query = { where: { walletId: 'w7' }, orderBy: 'createdAt', order: 'desc', limit: 50 } as const
    const plan = storage.explainQuery('transactions', query)
    expect(plan).toEqual([expect.stringMatching(/USING INDEX aw_transactions_walletId_createdAt_/)])
    const found = await storage.query('transactions', query)
    expect(found).toHaveLength(50)
    expect(found.every((record) => record.walletId === 'w7')).toBe(true)
    expect(found[0]!.id).toBe(`tx-${String(total - wallets + 7).padStart(6, '0')}`)
  })

  it('finds a transaction by hash and the queued/submitted work lists through indexes', () => {
    expect(storage.explainQuery('transactions', { where: { hash: '0x01' } }).join(' ')).toMatch(
      /USING INDEX aw_transactions_hash_/,
    )
    expect(
      storage.explainQuery('transactions', {
        where: { status: 'submitted' },
        orderBy: 'createdAt',
        limit: 1000,
      }),
    ).toEqual([expect.stringMatching(/USING INDEX aw_transactions_status_createdAt_/)])
    // The tracker's watch over mined txs not final yet (watchMined): few, whatever the history.
    expect(
      storage.explainQuery('transactions', {
        where: { finality: 'pending' },
        orderBy: 'createdAt',
        limit: 1000,
      }),
    ).toEqual([expect.stringMatching(/USING INDEX aw_transactions_finality_createdAt_/)])
    expect(
      storage
        .explainQuery('transactions', { range: { field: 'createdAt', gte: '2026-01-01', lt: '2026-01-02' } })
        .join(' '),
    ).toMatch(/USING INDEX aw_transactions_createdAt_/)
  })
})
