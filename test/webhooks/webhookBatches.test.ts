import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type AgentWallet,
  collectMetrics,
  type Storage,
  storageSchema,
  type WebhookDeliveryRecord,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { postgresStorage } from '@agentwallet/postgres'
import { sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testSchemas, testUrl } from '../../packages/postgres/test/testDatabase.js'
import { appendWalletEvents } from '../helpers/appendWalletEvents.js'
import { agentWalletOn, startDevnet } from '../helpers/devnetAgentWallet.js'
import { type Received, startReceiver } from '../helpers/webhookReceiver.js'

type Receiver = Awaited<ReturnType<typeof startReceiver>>

const webhooks = {
  allowPrivateTargets: ['127.0.0.0/8'],
  intervalMs: 20,
  backoffBaseMs: 20,
  backoffMaxMs: 100,
  timeoutMs: 5_000,
}
const masterKey = '5e'.repeat(32)

let devnet: Devnet
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await devnet.close()
})

type Listed = Awaited<ReturnType<AgentWallet['listWebhookDeliveries']>>['deliveries']

/** Every page of a subscription's log, `limit` at a time, each page checked to carry the whole count. */
async function allPages(aw: AgentWallet, subscriptionId: string, limit: number, total: number) {
  const listed: Listed = []
  for (let offset = 0; offset < total + limit; offset += limit) {
    const page = await aw.listWebhookDeliveries({ subscriptionId, limit, offset })
    expect(page.count).toBe(total)
    listed.push(...page.deliveries)
  }
  return listed
}

/** Waits until the subscription's log counts `n` (its last batch commits after the receiver answered). */
async function settled(aw: AgentWallet, subscriptionId: string, n: number): Promise<void> {
  await expect
    .poll(async () => (await aw.listWebhookDeliveries({ subscriptionId })).count, { timeout: 20_000 })
    .toBe(n)
}

/** The log id of the delivery of event `seq` to a subscription. */
const idOf = (subscriptionId: string, seq: number) => `whd_${subscriptionId.replace(/^whk_/, '')}_${seq}`

type Setup = { aw: AgentWallet; storage: Storage; receiver: Receiver; subscriptionId: string }

/**
 * Runs `test` on a fresh AgentWallet with one subscription (to wallet.created) of a receiver that
 * answers `respond`, and closes both after.
 */
async function withSubscription(
  test: (setup: Setup) => Promise<void>,
  respond?: (received: Received) => number,
): Promise<void> {
  const aw = await agentWalletOn(devnet, { webhooks })
  const receiver = await startReceiver(respond)
  try {
    const { subscription } = await aw.subscribeWebhook({ url: receiver.url, events: ['wallet.created'] })
    await test({ aw, storage: aw.context.storage, receiver, subscriptionId: subscription.id })
  } finally {
    await receiver.close()
    await aw.close()
  }
}

describe('webhook deliveries kept in batch records', () => {
  it('a burst of N delivered events writes a record per batch, not per delivery, and the log still lists all N', () =>
    withSubscription(async ({ aw, storage, receiver, subscriptionId }) => {
      await appendWalletEvents(storage, 250, 'evt_burst')
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(250)
      await settled(aw, subscriptionId, 250)

      // Batches of at most 100 from the log: 100, 100, 50. Not one record a delivery.
      expect(await storage.count('webhook_delivery_batches')).toBe(3)
      expect(await storage.count('webhook_deliveries')).toBe(0)

      const listed = await allPages(aw, subscriptionId, 60, 250)
      const expectedIds = receiver.received.map((entry) => idOf(subscriptionId, entry.json.seq))
      expect(listed.map((delivery) => delivery.id).sort()).toEqual([...expectedIds].sort())
      const times = listed.map((delivery) => delivery.createdAt)
      expect(times).toEqual([...times].sort().reverse())

      const first = receiver.received[0]!
      const [entry] = (await aw.listWebhookDeliveries({ subscriptionId, offset: 249 })).deliveries
      expect(entry).toEqual({
        id: expectedIds[0],
        tenantId: 'default',
        subscriptionId,
        url: receiver.url,
        eventId: first.json.id,
        eventType: 'wallet.created',
        webhookEvent: 'wallet_created',
        seq: first.json.seq,
        status: 'delivered',
        attempts: [
          {
            at: entry!.createdAt,
            durationMs: expect.any(Number),
            statusCode: 200,
            ok: true,
            responseBytes: 2,
          },
        ],
        attemptBase: 0,
        nextAttemptAt: entry!.createdAt,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      })

      const byStatus = async (status: 'pending' | 'delivered' | 'dead') =>
        (await aw.listWebhookDeliveries({ subscriptionId, status })).count
      expect([await byStatus('delivered'), await byStatus('pending'), await byStatus('dead')]).toEqual([
        250, 0, 0,
      ])
    }))

  it('a failure in the middle of a batch is one webhook_deliveries record; the deliveries around it are batched', () =>
    withSubscription(
      async ({ aw, storage, receiver, subscriptionId }) => {
        await appendWalletEvents(storage, 10, 'evt_middle')
        await settled(aw, subscriptionId, 10)
        expect(receiver.received).toHaveLength(9)

        const records = await storage.query('webhook_deliveries', { where: { subscriptionId } })
        expect(records).toHaveLength(1)
        expect(records[0]).toMatchObject({ status: 'dead', attempts: [{ ok: false, statusCode: 400 }] })
        // The four before it in one batch, the five after it in the next.
        const batches = await storage.query('webhook_delivery_batches', { orderBy: 'firstSeq' })
        expect(batches.map((batch) => batch.deliveries.length)).toEqual([4, 5])

        const listed = await allPages(aw, subscriptionId, 3, 10)
        expect(listed.filter((delivery) => delivery.status === 'dead').map(({ id }) => id)).toEqual([
          records[0]!.id,
        ])
        expect(new Set(listed.map((delivery) => delivery.id)).size).toBe(10)

        const families = await collectMetrics(aw.context)
        const gauge = families.find((family) => family.name === 'agentwallet_webhook_deliveries')!
        expect(gauge.samples).toEqual([
          { labels: { status: 'pending' }, value: 0 },
          { labels: { status: 'dead' }, value: 1 },
        ])
      },
      // The fifth event is refused for good (a 4xx is not retried): dead at once.
      (entry) => (entry.json.data.walletId === 'wal_4' ? 400 : 200),
    ))

  it('retries a delivery kept in a batch: it leaves the batch as a pending record, is sent again, and lists once', () =>
    withSubscription(async ({ aw, storage, receiver, subscriptionId }) => {
      await appendWalletEvents(storage, 5, 'evt_retry')
      await settled(aw, subscriptionId, 5)
      const third = receiver.received[2]!.json
      const id = idOf(subscriptionId, third.seq)
      const listedAs = async () =>
        (await aw.listWebhookDeliveries({ subscriptionId })).deliveries.find((entry) => entry.id === id)
      const before = (await listedAs())!

      const { delivery } = await aw.retryWebhookDelivery({ deliveryId: id })
      expect(delivery).toMatchObject({ id, status: 'pending', attemptBase: 1, attempts: before.attempts })
      const [batch] = await storage.query('webhook_delivery_batches', {})
      expect(batch!.deliveries.map((entry) => entry.seq)).not.toContain(third.seq)
      expect(batch!.deliveries).toHaveLength(4)

      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(6)
      expect(receiver.received[5]!.json.id).toBe(third.id)
      await expect.poll(async () => (await listedAs())?.status, { timeout: 10_000 }).toBe('delivered')
      expect((await listedAs())?.attempts).toHaveLength(2)

      const listed = await allPages(aw, subscriptionId, 2, 5)
      expect(listed.filter((entry) => entry.id === id)).toHaveLength(1)
      expect(await storage.count('webhook_deliveries')).toBe(1)

      // An id no batch holds (no such event) is not found, whatever its form.
      for (const deliveryId of [idOf(subscriptionId, 999_999), 'whd_'])
        await expect(aw.retryWebhookDelivery({ deliveryId })).rejects.toMatchObject({ code: 'not_found' })
    }))

  it('keeps a deleted subscription’s log and its count, a retry included', () =>
    withSubscription(async ({ aw, storage, receiver, subscriptionId }) => {
      const gone = (await aw.subscribeWebhook({ url: receiver.url, events: ['wallet.created'] })).subscription
        .id
      await appendWalletEvents(storage, 3, 'evt_deleted')
      await settled(aw, subscriptionId, 3)
      await settled(aw, gone, 3)
      await aw.deleteWebhook({ subscriptionId: gone })

      const log = await aw.listWebhookDeliveries({ subscriptionId: gone })
      expect(log.count).toBe(3)
      expect(log.deliveries.map((delivery) => delivery.status)).toEqual([
        'delivered',
        'delivered',
        'delivered',
      ])
      expect((await aw.listWebhookDeliveries({})).count).toBe(6)

      // A retry moves it out of its batch into a record of its own (never sent: the subscription is gone).
      await aw.retryWebhookDelivery({ deliveryId: log.deliveries[0]!.id })
      const after = await aw.listWebhookDeliveries({ subscriptionId: gone })
      expect(after.count).toBe(3)
      expect(after.deliveries.map((delivery) => delivery.status).sort()).toEqual([
        'delivered',
        'delivered',
        'pending',
      ])
      expect((await aw.listWebhookDeliveries({})).count).toBe(6)
    }))
})

/** The storage schema of the release before batches: no batch or retired-count collection. */
const olderSchema = Object.fromEntries(
  Object.entries(storageSchema).filter(
    ([collection]) => collection !== 'webhook_delivery_batches' && collection !== 'webhook_retired_counts',
  ),
)

const schemas = testSchemas()
const dirs: string[] = []
afterAll(async () => {
  await schemas.cleanup()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A delivered record as the release before batches wrote one for every delivery. */
const olderDelivery = (seq: number, at: string): WebhookDeliveryRecord => ({
  id: `whd_old_${seq}`,
  tenantId: 'default',
  subscriptionId: 'whk_old',
  url: 'http://127.0.0.1:9/old',
  eventId: `evt_old_${seq}`,
  eventType: 'wallet.created',
  webhookEvent: 'wallet_created',
  seq,
  status: 'delivered',
  attempts: [{ at, durationMs: 3, statusCode: 200, ok: true, responseBytes: 2 }],
  attemptBase: 0,
  nextAttemptAt: at,
  createdAt: at,
  updatedAt: at,
})

describe.each([
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'aw-batches-'))
      dirs.push(dir)
      const filename = join(dir, 'agentwallet.db')
      return {
        older: async () => sqliteStorage({ filename, schema: olderSchema }),
        current: async () => sqliteStorage({ filename }),
      }
    },
  ],
  [
    'postgres',
    () => {
      const schema = schemas.next()
      return {
        older: () => postgresStorage({ connectionString: testUrl, schema, indexes: olderSchema }),
        current: () => postgresStorage({ connectionString: testUrl, schema }),
      }
    },
  ],
] as const)('a %s database from before batches', (_name, open) => {
  it('opens, lists its per-delivery records beside new batched ones, and counts both', async () => {
    const { older, current } = open()
    const before: Storage = await older()
    await before.transaction([], async (tx) => {
      await tx.insert('webhook_deliveries', olderDelivery(1, '2026-01-01T00:00:00.000Z'))
      await tx.insert('webhook_deliveries', olderDelivery(2, '2026-01-01T00:00:01.000Z'))
    })
    await before.close()

    const storage = await current()
    const receiver = await startReceiver()
    const aw = await agentWalletOn(devnet, { storage, masterKey, webhooks })
    try {
      const { subscription } = await aw.subscribeWebhook({ url: receiver.url, events: ['wallet.created'] })
      await appendWalletEvents(storage, 3, 'evt_upgrade')
      await settled(aw, subscription.id, 3)
      expect(await storage.count('webhook_delivery_batches')).toBe(1)

      const log = await aw.listWebhookDeliveries({})
      expect(log.count).toBe(5)
      expect(log.deliveries.slice(3).map((delivery) => delivery.id)).toEqual(['whd_old_2', 'whd_old_1'])
      expect((await aw.listWebhookDeliveries({ limit: 2, offset: 3 })).deliveries).toEqual([
        olderDelivery(2, '2026-01-01T00:00:01.000Z'),
        olderDelivery(1, '2026-01-01T00:00:00.000Z'),
      ])
      expect((await aw.listWebhookDeliveries({ status: 'delivered' })).count).toBe(5)

      // A batched one is found by its id in this database too, and leaves its batch on retry.
      const middle = log.deliveries[1]!
      const { delivery } = await aw.retryWebhookDelivery({ deliveryId: middle.id })
      expect(delivery).toMatchObject({ id: middle.id, status: 'pending', attemptBase: 1 })
      const [batch] = await storage.query('webhook_delivery_batches', {})
      expect(batch!.deliveries.map((entry) => entry.seq)).not.toContain(middle.seq)
      expect((await aw.listWebhookDeliveries({})).count).toBe(5)
    } finally {
      await aw.close()
      await receiver.close()
      await storage.close()
    }
  })
})
