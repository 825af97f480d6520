import { describe, expect, it, vi } from 'vitest'
import type { ChainProvider } from '../chain/types.js'
import { memoryStorage } from '../storage/memoryStorage.js'
import { type QueryOptions, storageSchema } from '../storage/types.js'
import { collectMetrics } from './collectMetrics.js'
import type { MetricFamily } from './metricFamily.js'

const now = new Date('2030-01-01T00:10:00.000Z')
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString()
const chains = {
  list: () => [
    { name: 'devnet', chainId: 31337 },
    { name: 'base', chainId: 8453 },
  ],
} as unknown as ChainProvider

function value(families: MetricFamily[], name: string, labels: Record<string, string> = {}) {
  const family = families.find((candidate) => candidate.name === name)
  const sample = family?.samples.find((candidate) =>
    Object.entries(labels).every(([key, label]) => candidate.labels?.[key] === label),
  )
  if (!sample) throw new Error(`no sample ${name} ${JSON.stringify(labels)}`)
  return sample.value
}

async function seeded() {
  const storage = memoryStorage()
  await storage.transaction([], async (tx) => {
    const txs: Array<[string, string, number]> = [
      ['devnet', 'confirmed', 900],
      ['devnet', 'confirmed', 800],
      ['devnet', 'submitted', 300],
      ['devnet', 'submitted', 60],
      ['devnet', 'queued', 5],
      ['base', 'failed', 100],
      ['base', 'pending_approval', 50],
    ]
    for (const [index, [chain, status, age]] of txs.entries()) {
      // Partial records (only the fields metrics read): written untyped, as `string` collections.
      await tx.insert<string>('transactions', {
        id: `tx_${index}`,
        tenantId: 't_secret',
        chain,
        status,
        createdAt: ago(age),
      })
    }
    await tx.insert<string>('approvals', {
      id: 'ap_1',
      tenantId: 't_secret',
      status: 'pending',
      createdAt: ago(120),
    })
    await tx.insert<string>('approvals', {
      id: 'ap_2',
      tenantId: 't_secret',
      status: 'pending',
      createdAt: ago(30),
    })
    await tx.insert<string>('approvals', {
      id: 'ap_3',
      tenantId: 't_secret',
      status: 'approved',
      createdAt: ago(600),
    })
    await tx.insert<string>('webhook_deliveries', { id: 'd_1', status: 'pending', createdAt: ago(40) })
    await tx.insert<string>('webhook_deliveries', { id: 'd_2', status: 'dead', createdAt: ago(500) })
    await tx.insert<string>('webhook_deliveries', { id: 'd_3', status: 'dead', createdAt: ago(400) })
    await tx.insert<string>('webhook_deliveries', { id: 'd_4', status: 'delivered', createdAt: ago(10) })
  })
  return storage
}

describe('collectMetrics', () => {
  it('counts transactions by chain and status and ages the oldest unmined, approval and delivery', async () => {
    const families = await collectMetrics({ storage: await seeded(), chains, now: () => now })
    expect(value(families, 'agentwallet_transactions', { chain: 'devnet', status: 'confirmed' })).toBe(2)
    expect(value(families, 'agentwallet_transactions', { chain: 'devnet', status: 'submitted' })).toBe(2)
    expect(value(families, 'agentwallet_transactions', { chain: 'base', status: 'failed' })).toBe(1)
    expect(value(families, 'agentwallet_transactions', { chain: 'base', status: 'confirmed' })).toBe(0)
    const oldest = 'agentwallet_transactions_oldest_unmined_age_seconds'
    expect(value(families, oldest, { chain: 'devnet', status: 'submitted' })).toBe(300)
    expect(value(families, oldest, { chain: 'devnet', status: 'queued' })).toBe(5)
    expect(value(families, oldest, { chain: 'base', status: 'submitted' })).toBe(0)
    expect(value(families, 'agentwallet_approvals_pending')).toBe(2)
    expect(value(families, 'agentwallet_approvals_oldest_pending_age_seconds')).toBe(120)
    expect(value(families, 'agentwallet_webhook_deliveries', { status: 'pending' })).toBe(1)
    expect(value(families, 'agentwallet_webhook_deliveries', { status: 'dead' })).toBe(2)
    expect(value(families, 'agentwallet_webhook_deliveries_oldest_pending_age_seconds')).toBe(40)
    expect(JSON.stringify(families)).not.toMatch(/t_secret|tx_\d|ap_\d|d_\d/)
  })

  it('reads only counts and single-record queries on indexed fields: it never pages through records', async () => {
    const storage = await seeded()
    const query = vi.spyOn(storage, 'query')
    const count = vi.spyOn(storage, 'count')
    await collectMetrics({ storage, chains, now: () => now })
    expect(query.mock.calls.length).toBeGreaterThan(0)
    for (const [, options] of query.mock.calls as Array<[string, QueryOptions]>) {
      expect(options).toMatchObject({ orderBy: 'createdAt', order: 'asc', limit: 1 })
    }
    for (const [collection, options] of [...query.mock.calls, ...count.mock.calls] as Array<
      [string, QueryOptions]
    >) {
      for (const field of [
        ...Object.keys(options?.where ?? {}),
        ...(options?.orderBy ? [options.orderBy] : []),
      ]) {
        expect(storageSchema[collection]?.indexes, `${collection}.${field} is indexed`).toContain(field)
      }
    }
  })
})
