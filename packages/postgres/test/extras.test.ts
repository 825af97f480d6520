import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { lockId } from '../src/lockId.js'
import { testSchemas, testUrl } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

describe('postgresStorage extras', () => {
  it('claims due deliveries with SKIP LOCKED: concurrent claimers across instances never share one', async () => {
    const a = await schemas.storage({ poolSize: 4 })
    const b = await schemas.storage({ schema: a.schema, poolSize: 4, migrate: false })
    try {
      await a.transaction([], async (tx) => {
        for (let i = 0; i < 100; i++) {
          // Partial records (only the fields a claim reads): written untyped.
          await tx.put<string>('webhook_deliveries', {
            id: `d${String(i).padStart(3, '0')}`,
            status: i % 10 === 0 ? 'delivered' : 'pending',
            nextAttemptAt: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
          })
        }
      })
      const claimOnce = (storage: typeof a) =>
        storage.claim<{ id: string; nextAttemptAt: string }>('webhook_deliveries', {
          where: { status: 'pending' },
          range: { field: 'nextAttemptAt', lt: '2026-01-01T00:01:00.000Z' },
          orderBy: 'nextAttemptAt',
          limit: 7,
          patch: { nextAttemptAt: '2026-01-01T00:05:00.000Z', claimedBy: 'x' },
        })
      const batches = await Promise.all(Array.from({ length: 20 }, (_, i) => claimOnce(i % 2 ? a : b)))
      const ids = batches.flat().map((delivery) => delivery.id)
      expect(ids).toHaveLength(90)
      expect(new Set(ids).size).toBe(90)
      expect(batches.flat().every((delivery) => delivery.nextAttemptAt === '2026-01-01T00:05:00.000Z')).toBe(
        true,
      )
      // Each batch comes back in the claim's order (by the old nextAttemptAt, then id).
      const claimOrder = (id: string) => `${String(Number(id.slice(1)) % 60).padStart(2, '0')} ${id}`
      for (const batch of batches) {
        const keys = batch.map((delivery) => claimOrder(delivery.id))
        expect(keys).toEqual([...keys].sort())
      }
      expect(await claimOnce(a)).toEqual([])
      await expect(a.claim('webhook_deliveries', { limit: 1, patch: { id: 'other' } })).rejects.toMatchObject(
        { code: 'validation_failed' },
      )
    } finally {
      await b.close()
      await a.close()
    }
  })

  it('gives a leader lock to one instance at a time and hands it over on release', async () => {
    const a = await schemas.storage({ poolSize: 1 })
    const b = await schemas.storage({ schema: a.schema, poolSize: 1, migrate: false })
    try {
      const lock = await a.tryAdvisoryLock('tracker:base')
      expect(lock).toBeDefined()
      expect(await b.tryAdvisoryLock('tracker:base')).toBeUndefined()
      // A transaction key of the same name is a different lock.
      expect(await b.transaction(['tracker:base'], async () => 'not blocked')).toBe('not blocked')
      const order: string[] = []
      const follower = b.withLeaderLock(
        'tracker:base',
        async (signal) => {
          order.push('b leads')
          expect(signal.aborted).toBe(false)
          return 'b done'
        },
        { retryMs: 20 },
      )
      await sleep(100)
      order.push('a releases')
      await lock!.release()
      expect(await follower).toBe('b done')
      expect(order).toEqual(['a releases', 'b leads'])
      const again = await a.tryAdvisoryLock('tracker:base')
      expect(again).toBeDefined()
      await again!.release()
    } finally {
      await b.close()
      await a.close()
    }
  })

  it('tells the leader when its lock connection dies, and frees the lock for another', async () => {
    const a = await schemas.storage({ poolSize: 1 })
    const admin = new pg.Client({ connectionString: testUrl })
    await admin.connect()
    try {
      const lock = await a.tryAdvisoryLock('tracker:sepolia')
      const id = BigInt.asUintN(64, BigInt(lockId(a.schema, 'leader', 'tracker:sepolia')))
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2",
        [String(id >> 32n), String(id & 0xffffffffn)],
      )
      expect(killed.rowCount).toBe(1)
      for (let waited = 0; !lock!.signal.aborted && waited < 5_000; waited += 20) await sleep(20)
      expect(lock!.signal.aborted).toBe(true)
      const next = await a.tryAdvisoryLock('tracker:sepolia')
      expect(next).toBeDefined()
      await next!.release()
      await lock!.release()
    } finally {
      await admin.end()
      await a.close()
    }
  })

  it('stops waiting for leadership when the caller aborts', async () => {
    const a = await schemas.storage({ poolSize: 1 })
    try {
      const lock = await a.tryAdvisoryLock('tracker:mainnet')
      const controller = new AbortController()
      const waiting = a.withLeaderLock('tracker:mainnet', async () => 'never', {
        retryMs: 20,
        signal: controller.signal,
      })
      await sleep(50)
      controller.abort(Object.assign(new Error('shutting down'), { code: 'test_abort' }))
      await expect(waiting).rejects.toMatchObject({ code: 'test_abort' })
      await lock!.release()
    } finally {
      await a.close()
    }
  })
})
