import {
  type AgentWallet,
  type EnvelopeKeyRecord,
  keyFingerprint,
  type LocalKeyRecord,
  masterKeyRotationCollection,
  memoryStorage,
  openEnvelope,
  parseMasterKey,
  rotateMasterKey,
  type Storage,
  type StorageTx,
  unseal,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testSchemas } from '../../packages/postgres/test/testDatabase.js'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  publicClientOf,
  startDevnet,
} from '../helpers/devnetAgentWallet.js'
import { startReceiver } from '../helpers/webhookReceiver.js'

const keyA = 'a1'.repeat(32)
const keyB = 'b2'.repeat(32)
const keyC = 'c3'.repeat(32)
const fast = {
  allowPrivateTargets: ['127.0.0.0/8'],
  intervalMs: 20,
  backoffBaseMs: 20,
  backoffMaxMs: 100,
  timeoutMs: 2_000,
}

let devnet: Devnet
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await devnet?.close()
})

/** Every record these tests seal is an envelope; anything else is a failure of the setup. */
const envelope = (record: LocalKeyRecord): EnvelopeKeyRecord => {
  if (record.kind !== 'envelope') throw new Error(`expected an envelope record, got ${record.kind}`)
  return record
}

const vaultRows = async (storage: Storage) =>
  (await storage.query('vault_keys', { orderBy: 'id' })).map((row) => ({
    ...row,
    record: envelope(row.record),
  }))
const subscriptions = (storage: Storage) => storage.query('webhook_subscriptions', { orderBy: 'id' })

/** Which of the keys each sealed record opens with (really opened, not just its fingerprint read). */
async function openingKeys(storage: Storage, keys: string[]): Promise<string[]> {
  const opens = (attempt: (key: Uint8Array) => void) =>
    keys.find((key) => {
      try {
        attempt(parseMasterKey(key))
        return true
      } catch {
        return false
      }
    }) ?? 'none'
  const wallets = (await vaultRows(storage)).map((row) =>
    opens((key) => openEnvelope(row.record, key, row.id)),
  )
  const secrets = (await subscriptions(storage)).map((row) =>
    opens((key) => unseal(key, row.sealedSecret!, `agentwallet/webhook-secret/v1:${row.id}`)),
  )
  return [...wallets, ...secrets]
}

/** A store under key A: `wallets` wallets and `hooks` webhook subscriptions, nothing running on it. */
async function storeUnderA(storage: Storage, wallets: number, hooks: number) {
  const aw = await agentWalletOn(devnet, { storage, masterKey: keyA, track: false, webhooks: fast })
  try {
    const created = []
    for (let i = 0; i < wallets; i++) created.push((await aw.createWallet({ agentName: `w${i}` })).wallet)
    for (let i = 0; i < hooks; i++)
      await aw.subscribeWebhook({ url: `http://127.0.0.1:9/hook${i}`, events: ['*'] })
    return created
  } finally {
    await aw.close()
  }
}

/** `target` with `overrides` in place of some of its methods (the others bound to it). */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (property in overrides) return overrides[property as keyof T]
      const value = Reflect.get(object, property)
      return typeof value === 'function' ? value.bind(object) : value
    },
  })
}

/** The storage, except that the `n`+1-th record rewrite throws: a process dying half-way. */
function dyingAfter(storage: Storage, n: number): Storage {
  let writes = 0
  return overriding(storage, {
    transaction: (keys, fn) =>
      storage.transaction(keys, (tx) => {
        const put: StorageTx['put'] = async (collection, record) => {
          if (collection === 'vault_keys' || collection === 'webhook_subscriptions') {
            if (writes >= n) throw new Error('process killed')
            writes++
          }
          return tx.put(collection, record)
        }
        return fn(overriding(tx, { put }))
      }),
  })
}

describe('rotateMasterKey', () => {
  it('moves wallets and webhook secrets from A to B: old wallets sign on chain, deliveries verify with the secret issued under A, A is refused', async () => {
    const storage = memoryStorage()
    const receiver = await startReceiver()
    const awA = await agentWalletOn(devnet, { storage, masterKey: keyA, webhooks: fast })
    let awB: AgentWallet | undefined
    let closedA = false
    try {
      const funded = await fundedWallet(awA, devnet, '5', 'old')
      await awA.createWallet({ agentName: 'idle' })
      const { secret } = await awA.subscribeWebhook({ url: receiver.url, events: ['tx.confirmed'] })
      await awA.close()
      closedA = true

      const result = await rotateMasterKey(storage, { from: keyA, to: keyB, batchSize: 1 })
      expect(result).toMatchObject({
        walletKeys: { resealed: 2, skipped: 0 },
        webhookSecrets: { resealed: 1, skipped: 0 },
        failed: [],
        remaining: 0,
        fromKeyId: keyFingerprint(parseMasterKey(keyA)),
        toKeyId: keyFingerprint(parseMasterKey(keyB)),
      })
      expect(JSON.stringify(result)).not.toContain(keyA)
      expect(JSON.stringify(result)).not.toContain(keyB)
      expect(await openingKeys(storage, [keyA, keyB])).toEqual([keyB, keyB, keyB])
      expect(await storage.get(masterKeyRotationCollection, 'current')).toBeUndefined()

      await expect(agentWalletOn(devnet, { storage, masterKey: keyA, track: false })).rejects.toMatchObject({
        code: 'master_key_mismatch',
        details: { reason: 'wrong_master_key' },
      })

      awB = await agentWalletOn(devnet, { storage, masterKey: keyB, webhooks: fast })
      const to = freshAddress()
      const sent = await awB.send({ wallet: funded.address, to, value: '0.25' })
      const receipt = await publicClientOf(devnet).waitForTransactionReceipt({ hash: sent.transaction.hash! })
      expect(receipt.status).toBe('success')
      expect(receipt.from.toLowerCase()).toBe(funded.address.toLowerCase())
      expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(250_000_000_000_000_000n)

      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1)
      const [delivery] = receiver.received
      expect(delivery!.json.type).toBe('tx_confirmed')
      expect(delivery!.json.data.transactionId).toBe(sent.transaction.id)
      expect(() =>
        new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>),
      ).not.toThrow()

      // Running it again finds nothing left to do.
      expect(await rotateMasterKey(storage, { from: keyA, to: keyB })).toMatchObject({
        walletKeys: { resealed: 0, skipped: 2 },
        webhookSecrets: { resealed: 0, skipped: 1 },
        failed: [],
      })
    } finally {
      if (!closedA) await awA.close()
      await awB?.close()
      await receiver.close()
    }
  }, 60_000)

  it('is finished by running it again after dying half-way; meanwhile every record opens with A or B and no server starts', async () => {
    const storage = memoryStorage()
    const wallets = await storeUnderA(storage, 5, 2)

    await expect(
      rotateMasterKey(dyingAfter(storage, 3), { from: keyA, to: keyB, batchSize: 2 }),
    ).rejects.toThrow('process killed')
    const halfway = await openingKeys(storage, [keyA, keyB])
    expect(halfway.filter((key) => key === keyB)).toHaveLength(3)
    expect(halfway.filter((key) => key === keyA)).toHaveLength(4)
    for (const key of [keyA, keyB])
      await expect(agentWalletOn(devnet, { storage, masterKey: key, track: false })).rejects.toMatchObject({
        code: 'master_key_mismatch',
        details: { reason: 'rotation_unfinished' },
      })
    // A different target while this one is unfinished would leave records under three keys.
    await expect(rotateMasterKey(storage, { from: keyA, to: keyC })).rejects.toMatchObject({
      code: 'conflict',
    })

    expect(await rotateMasterKey(storage, { from: keyA, to: keyB })).toMatchObject({
      walletKeys: { resealed: 2, skipped: 3 },
      webhookSecrets: { resealed: 2, skipped: 0 },
      failed: [],
      remaining: 0,
    })
    expect(await openingKeys(storage, [keyA, keyB])).toEqual(Array(7).fill(keyB))
    const awB = await agentWalletOn(devnet, { storage, masterKey: keyB, track: false })
    try {
      for (const wallet of wallets) {
        const signer = await awB.context.vault.getSigner(wallet.address)
        expect(signer.address).toBe(wallet.address)
        await expect(signer.signMessage({ message: 'still mine' })).resolves.toMatch(/^0x/)
      }
    } finally {
      await awB.close()
    }
  }, 60_000)

  it('refuses a wrong old key before writing anything, and the same key twice', async () => {
    const storage = memoryStorage()
    await storeUnderA(storage, 3, 1)
    const before = JSON.stringify([await vaultRows(storage), await subscriptions(storage)])

    const refused = rotateMasterKey(storage, { from: keyC, to: keyB })
    await expect(refused).rejects.toMatchObject({
      code: 'master_key_mismatch',
      details: { count: 4, fromKeyId: keyFingerprint(parseMasterKey(keyC)) },
    })
    const message = await refused.catch((error: Error) =>
      JSON.stringify({ ...error, message: error.message }),
    )
    expect(message).not.toContain(keyC)
    expect(message).not.toContain(keyB)
    expect(JSON.stringify([await vaultRows(storage), await subscriptions(storage)])).toBe(before)
    expect(await storage.get(masterKeyRotationCollection, 'current')).toBeUndefined()

    await expect(rotateMasterKey(storage, { from: keyA, to: keyA })).rejects.toMatchObject({
      code: 'validation_failed',
    })
    await expect(agentWalletOn(devnet, { storage, masterKey: keyA, track: false })).resolves.toBeDefined()
  })

  it('reports a record that opens with neither key, rotates the rest, and the store still opens with B', async () => {
    const storage = memoryStorage()
    const [damaged] = await storeUnderA(storage, 3, 1)
    const id = damaged!.address.toLowerCase()
    await storage.transaction([], async (tx) => {
      const stored = (await tx.get('vault_keys', id))!
      const row = { ...stored, record: envelope(stored.record) }
      const tag = Buffer.from(row.record.wrappedDataKey.tag, 'base64')
      tag[0]! ^= 1
      await tx.put('vault_keys', {
        ...row,
        record: {
          ...row.record,
          wrappedDataKey: { ...row.record.wrappedDataKey, tag: tag.toString('base64') },
        },
      })
    })

    const result = await rotateMasterKey(storage, { from: keyA, to: keyB })
    expect(result).toMatchObject({
      walletKeys: { resealed: 2, skipped: 0 },
      webhookSecrets: { resealed: 1, skipped: 0 },
      failed: [{ collection: 'vault_keys', id, code: 'key_decryption_failed' }],
      remaining: 0,
    })
    const awB = await agentWalletOn(devnet, { storage, masterKey: keyB, track: false })
    await awB.close()
  })
})

describe('rotateMasterKey on Postgres', () => {
  const schemas = testSchemas()
  afterAll(() => schemas.cleanup())

  it('rotates a store, resumes after dying half-way, and B opens what A sealed', async () => {
    const storage = await schemas.storage()
    try {
      const wallets = await storeUnderA(storage, 4, 2)
      await expect(rotateMasterKey(dyingAfter(storage, 2), { from: keyA, to: keyB })).rejects.toThrow(
        'process killed',
      )
      expect((await openingKeys(storage, [keyA, keyB])).sort()).toEqual([keyA, keyA, keyA, keyA, keyB, keyB])
      expect(await rotateMasterKey(storage, { from: keyA, to: keyB })).toMatchObject({
        walletKeys: { resealed: 2, skipped: 2 },
        webhookSecrets: { resealed: 2, skipped: 0 },
        failed: [],
        remaining: 0,
      })
      await expect(agentWalletOn(devnet, { storage, masterKey: keyA, track: false })).rejects.toMatchObject({
        code: 'master_key_mismatch',
      })
      const awB = await agentWalletOn(devnet, { storage, masterKey: keyB, track: false })
      try {
        for (const wallet of wallets)
          await expect(
            (await awB.context.vault.getSigner(wallet.address)).signMessage({ message: 'pg' }),
          ).resolves.toMatch(/^0x/)
      } finally {
        await awB.close()
      }
    } finally {
      await storage.close()
    }
  }, 60_000)
})
