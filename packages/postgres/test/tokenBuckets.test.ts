import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { pruneTokenBuckets } from '../src/rateBuckets.js'
import { testSchemas, testUrl } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
/** So slow that nothing refills during a test: one token per 1,000 s. */
const noRefill = 0.001

/** Two storages on one schema, with their own pools: two replicas. */
const replicas = async () => {
  const a = await schemas.storage({ poolSize: 10 })
  const b = await schemas.storage({ schema: a.schema, poolSize: 10, migrate: false })
  return { a, b, close: () => Promise.all([a.close(), b.close()]) }
}

describe('postgresStorage.takeToken', () => {
  it('shares one bucket between two instances: capacity C allows C takes across both, then refuses', async () => {
    const { a, b, close } = await replicas()
    try {
      expect(a.capabilities.sharedTokenBuckets).toBe(true)
      const limit = { capacity: 5, refillPerSecond: noRefill }
      const takes = []
      for (let i = 0; i < 5; i++) takes.push(await (i % 2 ? b : a).takeToken('key:k1', limit))
      expect(takes).toEqual(Array.from({ length: 5 }, () => ({ ok: true })))
      const refusedA = await a.takeToken('key:k1', limit)
      const refusedB = await b.takeToken('key:k1', limit)
      for (const refused of [refusedA, refusedB]) {
        expect(refused.ok).toBe(false)
        const seconds = (refused as { retryAfterSeconds: number }).retryAfterSeconds
        expect(Number.isInteger(seconds)).toBe(true)
        expect(seconds).toBeGreaterThanOrEqual(1)
        expect(seconds).toBeLessThanOrEqual(1 / noRefill)
      }
      // Another key has its own bucket.
      expect(await b.takeToken('key:k2', limit)).toEqual({ ok: true })
    } finally {
      await close()
    }
  })

  it('gives tokens back as time passes on the database clock', async () => {
    const { a, b, close } = await replicas()
    try {
      const limit = { capacity: 3, refillPerSecond: 2 }
      for (let i = 0; i < 3; i++) expect(await a.takeToken('ip:1.2.3.4', limit)).toEqual({ ok: true })
      const refused = await b.takeToken('ip:1.2.3.4', limit)
      expect(refused).toEqual({ ok: false, retryAfterSeconds: 1 })
      await sleep(700)
      expect(await b.takeToken('ip:1.2.3.4', limit)).toEqual({ ok: true })
    } finally {
      await close()
    }
  })

  it('is exact under concurrency: 50 parallel takes across both instances, capacity 20 → 20 granted', async () => {
    const { a, b, close } = await replicas()
    try {
      const limit = { capacity: 20, refillPerSecond: noRefill }
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? b : a).takeToken('key:burst', limit)),
      )
      expect(results.filter((result) => result.ok)).toHaveLength(20)
      expect(results.filter((result) => !result.ok)).toHaveLength(30)
    } finally {
      await close()
    }
  })

  it('refuses a bucket with no capacity or no refill', async () => {
    const { a, close } = await replicas()
    try {
      await expect(a.takeToken('k', { capacity: 0, refillPerSecond: 1 })).rejects.toMatchObject({
        code: 'validation_failed',
      })
      await expect(a.takeToken('k', { capacity: 1, refillPerSecond: 0 })).rejects.toMatchObject({
        code: 'validation_failed',
      })
    } finally {
      await close()
    }
  })

  it('prunes exactly the buckets that are full again, also from a take after tokenBucketPruneMs', async () => {
    // `a` prunes only when asked here (its first prune is due 60 s after it opened), so the count is
    // the explicit prune's alone however slow the machine; `b` prunes on every take.
    const a = await schemas.storage({ poolSize: 2 })
    const b = await schemas.storage({ poolSize: 2, tokenBucketPruneMs: 0 })
    const pool = new pg.Pool({ connectionString: testUrl, max: 1 })
    const keysOf = async (storage: typeof a) =>
      (
        await pool.query<{ key: string }>(`SELECT key FROM "${storage.schema}".rate_buckets ORDER BY key`)
      ).rows.map((row) => row.key)
    try {
      await a.takeToken('fast', { capacity: 2, refillPerSecond: 100 }) // full again after 10 ms
      await a.takeToken('slow', { capacity: 2, refillPerSecond: noRefill })
      await sleep(50)
      expect(await pruneTokenBuckets(pool, `"${a.schema}".rate_buckets`)).toBe(1)
      expect(await keysOf(a)).toEqual(['slow'])
      // A pruned bucket comes back full: capacity 2 allows 2 takes.
      const fastLimit = { capacity: 2, refillPerSecond: 0.01 }
      expect(await a.takeToken('fast', fastLimit)).toEqual({ ok: true })
      expect(await a.takeToken('fast', fastLimit)).toEqual({ ok: true })
      expect((await a.takeToken('fast', fastLimit)).ok).toBe(false)
      // The storage prunes by itself on a take (here every take); 'quick' is full 10 ms after it.
      await b.takeToken('slow', { capacity: 2, refillPerSecond: noRefill })
      await b.takeToken('quick', { capacity: 1, refillPerSecond: 100 })
      await sleep(50)
      await b.takeToken('slow', { capacity: 2, refillPerSecond: noRefill })
      for (let i = 0; i < 50 && (await keysOf(b)).includes('quick'); i++) await sleep(20)
      expect(await keysOf(b)).toEqual(['slow'])
    } finally {
      await pool.end()
      await a.close()
      await b.close()
    }
  })
})
