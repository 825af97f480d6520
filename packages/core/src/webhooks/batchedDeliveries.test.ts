import { describe, expect, it } from 'vitest'
import type { Principal } from '../principals/types.js'
import { memoryStorage } from '../storage/memoryStorage.js'
import { listWebhookDeliveries } from './deliveries.js'
import { newDeliveryBatch, unbatchDeliveries } from './deliveryBatch.js'
import type { WebhookDeliveryBatchRecord, WebhookDeliveryRecord, WebhookSubscriptionRecord } from './types.js'
import { webhookDeliveryId } from './webhookDeliveryId.js'

const admin: Principal = { tenantId: 't1', id: 'admin', role: 'admin' }
const base = Date.parse('2030-01-01T00:00:00.000Z')
const iso = (ms: number) => new Date(base + ms).toISOString()

/** A small deterministic generator, so a failure reproduces. */
function numbers(seed: number) {
  let state = seed
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state % below
  }
}

function delivery(
  subscriptionId: string,
  tenantId: string,
  seq: number,
  at: number,
  status: WebhookDeliveryRecord['status'],
): WebhookDeliveryRecord {
  return {
    id: webhookDeliveryId(subscriptionId, seq),
    tenantId,
    subscriptionId,
    url: `http://127.0.0.1:9/${subscriptionId}`,
    eventId: `evt_${seq}`,
    eventType: 'wallet.created',
    webhookEvent: 'wallet_created',
    seq,
    status,
    attempts: [
      {
        at: iso(at),
        durationMs: 2,
        statusCode: status === 'delivered' ? 200 : 400,
        ok: status === 'delivered',
      },
    ],
    attemptBase: 0,
    nextAttemptAt: iso(at),
    createdAt: iso(at),
    updatedAt: iso(at),
  }
}

/**
 * Four subscriptions of tenant t1 (one deleted, its count retired) and one of t2, delivering over
 * the same stretch of time in batches of 1–12, with clock ties inside and across them (every
 * delivery at one instant when `frozen`, as under a test clock); now and then a failed delivery,
 * kept as a record of its own. Answers the stored state and every delivery the log should show.
 */
async function seeded(frozen: boolean) {
  const storage = memoryStorage()
  const next = numbers(17)
  const batches: WebhookDeliveryBatchRecord[] = []
  const records: WebhookDeliveryRecord[] = []
  const counts = new Map<string, number>()
  let seq = 0
  for (const [subscriptionId, tenantId, start] of [
    ['whk_a', 't1', 0],
    ['whk_b', 't1', 0],
    ['whk_c', 't1', 400],
    ['whk_gone', 't1', 0],
    ['whk_other', 't2', 0],
  ] as const) {
    let clock = start
    const later = (step: number) => {
      clock += frozen ? 0 : next(step)
      seq += 1
      return { seq, at: clock }
    }
    for (let round = 0; round < 12; round++) {
      const delivered = Array.from({ length: 1 + next(12) }, () => {
        const { seq, at } = later(2)
        return delivery(subscriptionId, tenantId, seq, at, 'delivered')
      })
      const batch = newDeliveryBatch(
        { id: subscriptionId, tenantId, url: delivered[0]!.url },
        delivered,
        iso(clock),
      )
      batches.push(batch)
      counts.set(subscriptionId, (counts.get(subscriptionId) ?? 0) + delivered.length)
      if (next(3) === 0) {
        const { seq, at } = later(3)
        records.push(delivery(subscriptionId, tenantId, seq, at, next(2) ? 'dead' : 'pending'))
      }
    }
  }
  await storage.transaction([], async (tx) => {
    for (const batch of batches) await tx.insert('webhook_delivery_batches', batch)
    for (const record of records) await tx.insert('webhook_deliveries', record)
    for (const [id, batchedDeliveries] of counts) {
      const tenantId = id === 'whk_other' ? 't2' : 't1'
      if (id === 'whk_gone') await tx.insert('webhook_retired_counts', { id, tenantId, batchedDeliveries })
      else await tx.insert('webhook_subscriptions', subscription(id, tenantId, batchedDeliveries))
    }
  })
  return { storage, all: [...batches.flatMap(unbatchDeliveries), ...records] }
}

function subscription(id: string, tenantId: string, batchedDeliveries: number): WebhookSubscriptionRecord {
  return {
    id,
    tenantId,
    url: `http://127.0.0.1:9/${id}`,
    events: ['*'],
    status: 'active',
    cursor: 0,
    consecutiveDeadLetters: 0,
    batchedDeliveries,
    createdBy: 'admin',
    createdAt: iso(0),
    updatedAt: iso(0),
  }
}

/** Newest first, ties by id descending: the order storage gives `createdAt` desc. */
const expectedOrder = (a: WebhookDeliveryRecord, b: WebhookDeliveryRecord) =>
  b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

describe('listWebhookDeliveries over batch records and delivery records', () => {
  it.each([
    ['a running clock', false],
    ['a frozen clock', true],
  ])(
    'pages the union newest first, with the right count, for every filter, limit and offset (%s)',
    async (_clock, frozen) => {
      const { storage, all } = await seeded(frozen)
      const ctx = { storage }
      const filters = [
        {},
        { subscriptionId: 'whk_a' },
        { subscriptionId: 'whk_gone' },
        { subscriptionId: 'whk_other' },
        { status: 'delivered' as const },
        { status: 'dead' as const },
        { subscriptionId: 'whk_b', status: 'pending' as const },
      ]
      for (const filter of filters) {
        const wanted = all
          .filter((entry) => entry.tenantId === 't1')
          .filter((entry) => !filter.subscriptionId || entry.subscriptionId === filter.subscriptionId)
          .filter((entry) => !filter.status || entry.status === filter.status)
          .sort(expectedOrder)
        for (const limit of [1, 7, 50, 200])
          for (const offset of [0, 3, 40, 150, Math.max(0, wanted.length - 1), wanted.length + 5]) {
            const page = await listWebhookDeliveries(ctx, admin, { ...filter, limit, offset })
            const where = JSON.stringify({ ...filter, limit, offset })
            expect(page.count, where).toBe(wanted.length)
            expect(page.deliveries, where).toEqual(wanted.slice(offset, offset + limit))
          }
      }
    },
  )
})
