import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type AgentWallet,
  deliverWebhooks,
  memoryKeyVault,
  newWebhookSecret,
  openWebhookSecret,
  type Storage,
  secretSealer,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { sqliteStorage } from '@agentwallet/sqlite'
import { Webhook } from 'standardwebhooks'
import { afterAll, describe, expect, it } from 'vitest'
import { testSchemas } from '../../packages/postgres/test/testDatabase.js'
import { agentWalletOn, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'
import { type Received, startReceiver } from '../helpers/webhookReceiver.js'

let devnet: Devnet
let aw: AgentWallet

const fast = {
  allowPrivateTargets: ['127.0.0.0/8'],
  intervalMs: 20,
  backoffBaseMs: 20,
  backoffMaxMs: 100,
  timeoutMs: 2_000,
}
const masterKey = '3c'.repeat(32)

useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  masterKey,
  webhooks: { ...fast, maxAttempts: 4, disableAfterDeadLetters: 50 },
})

const stored = (storage: Storage, id: string) => storage.get('webhook_subscriptions', id)

/** The secret's key material, as it would appear in any spelling of a stored record. */
const secretBody = (secret: string) => secret.slice('whsec_'.length)

const verifies = (secret: string, delivery: Received) =>
  new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)

const deliveriesOf = async (storage: Storage, subscriptionId: string) =>
  storage.query('webhook_deliveries', { where: { subscriptionId } })

/** The tenant's newest event seq: a subscription written with it as cursor gets only later events. */
async function lastSeq(storage: Storage): Promise<number> {
  let after = 0
  for (;;) {
    const [next] = await storage.readEvents('default', { after, limit: 1 })
    if (!next) return after
    after = next.seq
  }
}

/** A subscription record exactly as the code before sealing wrote it: the `whsec_` secret in clear. */
async function insertLegacySubscription(
  storage: Storage,
  url: string,
  status: 'active' | 'disabled' = 'active',
): Promise<{ id: string; secret: string }> {
  const secret = newWebhookSecret()
  const id = `whk_${randomBytes(16).toString('hex')}`
  const now = new Date().toISOString()
  await storage.transaction([], async (tx) =>
    tx.insert('webhook_subscriptions', {
      id,
      tenantId: 'default',
      url,
      events: ['wallet.created'],
      secret,
      status,
      cursor: await lastSeq(storage),
      consecutiveDeadLetters: 0,
      createdBy: 'local',
      createdAt: now,
      updatedAt: now,
    }),
  )
  return { id, secret }
}

describe('webhook signing secrets at rest', () => {
  it('stores only the sealed secret, and deliveries verify against the secret returned at subscribe', async () => {
    const receiver = await startReceiver()
    try {
      const { subscription, secret } = await aw.subscribeWebhook({
        url: receiver.url,
        events: ['wallet.created'],
      })
      const record = await stored(aw.context.storage, subscription.id)
      expect(record?.secret).toBeUndefined()
      expect(record?.sealedSecret).toMatchObject({ version: 1, keyId: expect.stringMatching(/^mk1:/) })
      expect(JSON.stringify(record)).not.toContain(secretBody(secret))
      expect(JSON.stringify(await aw.listWebhooks())).not.toContain('sealedSecret')

      const { wallet } = await aw.createWallet({ agentName: 'sealed' })
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1)
      expect(receiver.received[0]!.json.data.walletId).toBe(wallet.id)
      expect(() => verifies(secret, receiver.received[0]!)).not.toThrow()
      expect(() => verifies(newWebhookSecret(), receiver.received[0]!)).toThrow()
      // Delivered at once, it is kept in a batch record: neither that nor the log holds the secret.
      const batches = () =>
        aw.context.storage.query('webhook_delivery_batches', { where: { subscriptionId: subscription.id } })
      await expect.poll(async () => (await batches()).length, { timeout: 10_000 }).toBe(1)
      const log = await aw.listWebhookDeliveries({ subscriptionId: subscription.id })
      expect(log.count).toBe(1)
      expect(JSON.stringify([await batches(), log])).not.toContain(secretBody(secret))
    } finally {
      await receiver.close()
    }
  })

  it('delivers a subscription written in the old plaintext form, signed with its secret, and seals it', async () => {
    const receiver = await startReceiver()
    try {
      const legacy = await insertLegacySubscription(aw.context.storage, receiver.url)
      await aw.createWallet({ agentName: 'legacy' })
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1)
      expect(() => verifies(legacy.secret, receiver.received[0]!)).not.toThrow()

      // The delivery pass sealed it (the start-up pass ran before the record existed).
      const record = await stored(aw.context.storage, legacy.id)
      expect(record?.secret).toBeUndefined()
      expect(record?.sealedSecret).toBeDefined()
      expect(JSON.stringify(record)).not.toContain(secretBody(legacy.secret))
      expect(openWebhookSecret(aw.context, record!)).toBe(legacy.secret)

      await aw.createWallet({ agentName: 'legacy-2' })
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2)
      expect(() => verifies(legacy.secret, receiver.received[1]!)).not.toThrow()
    } finally {
      await receiver.close()
    }
  })

  it('refuses a sealed secret moved onto another subscription: nothing is sent, the delivery is dead-lettered', async () => {
    const hits = { a: 0, b: 0 }
    const a = await startReceiver(() => {
      hits.a++
      return 200
    })
    const b = await startReceiver(() => {
      hits.b++
      return 200
    })
    try {
      const first = await aw.subscribeWebhook({ url: a.url, events: ['wallet.created'] })
      const second = await aw.subscribeWebhook({ url: b.url, events: ['wallet.created'] })
      // Someone with write access to the database copies the first secret onto the second subscription.
      await aw.context.storage.transaction([`webhook:${second.subscription.id}`], async (tx) => {
        const source = await tx.get('webhook_subscriptions', first.subscription.id)
        const target = await tx.get('webhook_subscriptions', second.subscription.id)
        await tx.put('webhook_subscriptions', { ...target!, sealedSecret: source!.sealedSecret })
      })
      const moved = await stored(aw.context.storage, second.subscription.id)
      expect(() => openWebhookSecret(aw.context, moved!)).toThrow(
        expect.objectContaining({ code: 'key_decryption_failed' }),
      )

      await aw.createWallet({ agentName: 'moved' })
      await expect.poll(() => a.received.length, { timeout: 10_000 }).toBe(1)
      expect(() => verifies(first.secret, a.received[0]!)).not.toThrow()
      await expect
        .poll(async () => (await deliveriesOf(aw.context.storage, second.subscription.id))[0]?.status, {
          timeout: 10_000,
        })
        .toBe('dead')
      const [dead] = await deliveriesOf(aw.context.storage, second.subscription.id)
      // Not retried: no retry makes a ciphertext bound to another subscription open here.
      expect(dead!.attempts).toEqual([
        expect.objectContaining({ ok: false, statusCode: null, error: 'key_decryption_failed' }),
      ])
      expect(hits.b).toBe(0)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('keeps a delivery pending under another master key (nothing sent), and delivers it with the right one', async () => {
    const receiver = await startReceiver()
    const paused = await agentWalletOn(devnet, { masterKey, track: false, webhooks: fast })
    try {
      const { subscription, secret } = await paused.subscribeWebhook({ url: receiver.url, events: ['*'] })
      await paused.createWallet({ agentName: 'rekeyed' })
      const wrongKey = { ...paused.context, secrets: secretSealer('4d'.repeat(32)) }
      const record = await stored(paused.context.storage, subscription.id)
      expect(() => openWebhookSecret(wrongKey, record!)).toThrow(
        expect.objectContaining({ code: 'master_key_mismatch' }),
      )

      await deliverWebhooks(wrongKey)
      const [pending] = await deliveriesOf(paused.context.storage, subscription.id)
      expect(pending).toMatchObject({ status: 'pending' })
      expect(pending!.attempts).toEqual([
        expect.objectContaining({ ok: false, statusCode: null, error: 'master_key_mismatch' }),
      ])
      expect(receiver.received).toHaveLength(0)

      await expect
        .poll(
          async () => {
            await deliverWebhooks(paused.context)
            return receiver.received.length
          },
          { timeout: 5_000 },
        )
        .toBe(1)
      expect(() => verifies(secret, receiver.received[0]!)).not.toThrow()
      expect((await deliveriesOf(paused.context.storage, subscription.id))[0]?.status).toBe('delivered')
    } finally {
      await paused.close()
      await receiver.close()
    }
  })

  it('refuses to subscribe on durable storage without a master key (a caller-supplied vault), like the vault', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aw-whsec-'))
    const storage = sqliteStorage({ filename: join(dir, 'agentwallet.db') })
    const keyless = await agentWalletOn(devnet, { storage, vault: memoryKeyVault(), track: false })
    try {
      await expect(
        keyless.subscribeWebhook({ url: 'http://127.0.0.1:9/hook', events: ['*'] }),
      ).rejects.toMatchObject({ code: 'validation_failed' })
      expect(await storage.count('webhook_subscriptions')).toBe(0)
    } finally {
      await keyless.close()
      await storage.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

const schemas = testSchemas()
const dirs: string[] = []
afterAll(async () => {
  await schemas.cleanup()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe.each([
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'aw-whsec-'))
      dirs.push(dir)
      const storage = sqliteStorage({ filename: join(dir, 'agentwallet.db') })
      // Every byte SQLite wrote (database, WAL), as a reader of the data dir would see it.
      const rawBytes = () =>
        readdirSync(dir)
          .map((file) => readFileSync(join(dir, file)).toString('latin1'))
          .join('')
      return { storage, rawBytes }
    },
  ],
  ['postgres', async () => ({ storage: await schemas.storage(), rawBytes: undefined })],
] as const)('webhook secrets sealed in %s', (_name, open) => {
  it('seals plaintext records of an older database at start, disabled ones too, and delivers with every secret', async () => {
    const { storage, rawBytes } = await open()
    const receiver = await startReceiver()
    let started: AgentWallet | undefined
    try {
      // The database as the version before sealing left it.
      const active = await insertLegacySubscription(storage, receiver.url)
      const disabled = await insertLegacySubscription(storage, receiver.url, 'disabled')

      started = await agentWalletOn(devnet, { storage, masterKey, webhooks: fast })
      for (const legacy of [active, disabled]) {
        const record = await stored(storage, legacy.id)
        expect(record?.secret).toBeUndefined()
        expect(JSON.stringify(record)).not.toContain(secretBody(legacy.secret))
        expect(openWebhookSecret(started.context, record!)).toBe(legacy.secret)
      }

      const fresh = await started.subscribeWebhook({ url: receiver.url, events: ['wallet.created'] })
      expect(JSON.stringify(await stored(storage, fresh.subscription.id))).not.toContain(
        secretBody(fresh.secret),
      )
      // A secret sealed from the start was never written in clear, not even in a page or WAL frame.
      if (rawBytes) expect(rawBytes()).not.toContain(secretBody(fresh.secret))

      await started.createWallet({ agentName: 'durable' })
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2)
      const byWebhookSecret = receiver.received.map((delivery) =>
        [active.secret, fresh.secret].filter((secret) => {
          try {
            verifies(secret, delivery)
            return true
          } catch {
            return false
          }
        }),
      )
      expect(byWebhookSecret.flat().sort()).toEqual([active.secret, fresh.secret].sort())
    } finally {
      await started?.close()
      await receiver.close()
      await storage.close()
    }
  })
})
