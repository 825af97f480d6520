import type { TransactionRecord } from '@agentwallet/core'
import { devnetAccounts } from '@agentwallet/devnet'
import { type PostgresStorage, postgresStorage } from '@agentwallet/postgres'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  type PublicClient,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lockId } from '../../packages/postgres/src/lockId.js'
import { testSchemas } from '../../packages/postgres/test/testDatabase.js'
import { type Received, startReceiver } from '../helpers/webhookReceiver.js'
import {
  type Answer,
  advisoryLockHolder,
  call,
  connectWs,
  databaseUrl,
  type Replica,
  replicaCluster,
  waitUntil,
} from './replicaCluster.js'

/**
 * The reliability harness of DESIGN §8: real processes — an `agentwallet devnet` JSON-RPC node and
 * two `agentwallet serve` replicas on one fresh Postgres schema — checked from the outside (HTTP,
 * WebSocket, a webhook receiver) and from the inside (the shared database and the chain).
 */
const schemas = testSchemas()
const schema = schemas.next()
const cluster = replicaCluster({ schema })
const final = new Set(['confirmed', 'failed', 'blocked', 'rejected', 'expired'])
const recipient: Address = '0x000000000000000000000000000000000000bEEF'

let a: Replica
let b: Replica
let storage: PostgresStorage
let chain: PublicClient
let receiver: Awaited<ReturnType<typeof startReceiver>>
let funding: Promise<void> = Promise.resolve()

const admin = (replica: Replica, method: 'GET' | 'POST', path: string, body?: unknown) =>
  call(replica, cluster.adminKey, method, path, body)

async function fundedWallet(replica: Replica, eth: string): Promise<Address> {
  const created = await admin(replica, 'POST', '/wallet/create', { agentName: `agent-${replica.name}` })
  expect(created.status).toBe(201)
  const address = created.body.wallet.address as Address
  const funder = createWalletClient({
    account: privateKeyToAccount(devnetAccounts[9]!.privateKey),
    transport: http(cluster.rpcUrl),
  })
  // One funding tx at a time: an automining node refuses a nonce that arrives before its predecessor.
  const funded = funding.then(async () => {
    const hash = await funder.sendTransaction({ to: address, value: parseEther(eth), chain: null })
    await chain.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 20_000 })
  })
  funding = funded.catch(() => {})
  await funded
  return address
}

const transactionsOf = (address: Address) =>
  storage.query<TransactionRecord>('transactions', { where: { from: address }, limit: 1000 })

/** Every intent of these wallets in a final status, or undefined while some are still moving. */
async function allFinal(addresses: readonly Address[]): Promise<TransactionRecord[] | undefined> {
  const records = (await Promise.all(addresses.map(transactionsOf))).flat()
  return records.every((record) => final.has(record.status)) ? records : undefined
}

/** The signed nonces of one wallet (DB) are unique, the confirmed ones 0..n-1 = the chain's count. */
async function expectNoncesSound(address: Address, records: readonly TransactionRecord[]): Promise<void> {
  const signed = records.filter((record) => record.from === address && record.rawTx !== undefined)
  const nonces = signed.map((record) => record.nonce!)
  expect(new Set(nonces).size).toBe(nonces.length)
  const confirmed = signed.filter((record) => record.status === 'confirmed')
  const onChain = await chain.getTransactionCount({ address, blockTag: 'latest' })
  expect(confirmed.map((record) => record.nonce).sort((x, y) => x! - y!)).toEqual(
    Array.from({ length: onChain }, (_, i) => i),
  )
  // The chain mined exactly the tx each record signed: same hash, same nonce, same sender.
  for (const record of confirmed) {
    const mined = await chain.getTransaction({ hash: record.hash! })
    expect({ nonce: mined.nonce, from: mined.from.toLowerCase() }).toEqual({
      nonce: record.nonce,
      from: address.toLowerCase(),
    })
  }
}

beforeAll(async () => {
  receiver = await startReceiver()
  const rpcUrl = await cluster.startDevnet()
  chain = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 }) as PublicClient
  await cluster.migrate()
  ;[a, b] = await Promise.all([cluster.startReplica('a'), cluster.startReplica('b')])
  storage = await postgresStorage({ connectionString: databaseUrl, schema, migrate: false, poolSize: 2 })
  // No default rules in the way of a 200-send burst (the tenant default has a 60/h rate limit).
  const rules = await admin(a, 'POST', '/policy/update', {
    rules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
  })
  expect(rules.status).toBe(200)
  const hook = await admin(a, 'POST', '/webhooks/subscribe', { url: receiver.url, events: ['tx_confirmed'] })
  expect(hook.status).toBe(201)
}, 180_000)

afterAll(async () => {
  await cluster.close()
  await storage?.close()
  await receiver?.close()
  await schemas.cleanup()
}, 60_000)

describe('two replicas on one Postgres and one devnet', () => {
  it('concurrent sends from one wallet through both: contiguous nonces, the spend limit exact', async () => {
    const wallet = await fundedWallet(a, '2')
    const limit = await admin(b, 'POST', '/policy/update', {
      wallet,
      rules: [{ type: 'spend_limit', asset: 'native', max: '0.05', window: '24h' }],
    })
    expect(limit.status).toBe(200)
    // 20 sends of 0.005 against 0.05: exactly 10 fit, whichever replica each one reaches.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        admin(i % 2 ? b : a, 'POST', `/wallet/${wallet}/send`, { to: recipient, value: '0.005' }),
      ),
    )
    const accepted = answers.filter((answer) => answer.status === 200)
    const blocked = answers.filter((answer) => answer.status === 403)
    expect(accepted).toHaveLength(10)
    expect(blocked.map((answer) => answer.body.error.code)).toEqual(Array(10).fill('policy_blocked'))
    const records = await waitUntil(() => allFinal([wallet]), 30_000, 'the 10 sends to settle')
    expect(records.filter((record) => record.status === 'confirmed')).toHaveLength(10)
    await expectNoncesSound(wallet, records)
    expect(await chain.getTransactionCount({ address: wallet })).toBe(10)
  })

  it('a WebSocket client on replica A receives tx.confirmed for a send made through replica B', async () => {
    const wallet = await fundedWallet(b, '1')
    const socket = connectWs(a, cluster.adminKey)
    try {
      await socket.next((message) => message.type === 'ready', 10_000)
      const sent = await admin(b, 'POST', `/wallet/${wallet}/send`, { to: recipient, value: '0.01' })
      expect(sent.status).toBe(200)
      const hash = sent.body.transaction.hash as string
      const confirmed = await socket.next(
        (message) => message.type === 'tx.confirmed' && message.data?.hash === hash,
        20_000,
      )
      expect(confirmed.data).toMatchObject({ from: wallet, status: 'confirmed' })
    } finally {
      socket.close()
    }
  })

  it('revoking a key through replica A closes its WebSocket on replica B with 4401', async () => {
    const created = await admin(a, 'POST', '/api-keys', { name: 'revoked-across', role: 'approver' })
    expect(created.status).toBe(201)
    const socket = connectWs(b, created.body.key)
    try {
      await socket.next((message) => message.type === 'ready', 10_000)
      const revoked = await call(a, cluster.adminKey, 'DELETE', `/api-keys/${created.body.apiKey.id}`)
      expect(revoked.status).toBe(200)
      expect(await socket.closedWithin(10_000)).toBe(4401)
    } finally {
      socket.close()
    }
  })

  // Its waits are bounded and each says what it awaited; on a loaded machine they may add up past
  // the default test timeout, which would hide which one was slow: the test's own bound is their sum.
  it('kill -9 of the tracker leader during a 200-send burst: the other takes over; every intent final, no nonce twice, every confirmation delivered', async () => {
    const wallets = await Promise.all([a, b, a, b].map((replica) => fundedWallet(replica, '5')))
    // Kill the replica that tracks the chain, so the survivor must take the tracker over.
    const trackerLock = lockId(schema, 'leader', 'tracker:chain:31337')
    const leader = await waitUntil(() => advisoryLockHolder(trackerLock), 10_000, 'a tracker leader')
    const [victim, survivor] = leader === 'a' ? [a, b] : [b, a]
    const total = 200
    const answers: Array<Answer | 'lost'> = []
    let next = 0
    let answered = 0
    let killed: Promise<void> | undefined
    // 16 clients pull sends from one queue, alternating replicas; B dies after 60 answers, and
    // clients then use A only, as a load balancer would. A send whose connection died is "lost":
    // its outcome is unknown to the client, and the database check below covers it.
    const worker = async () => {
      while (next < total) {
        const i = next++
        const replica = i % 2 && !killed ? victim : survivor
        const answer = await admin(replica, 'POST', `/wallet/${wallets[i % wallets.length]}/send`, {
          to: recipient,
          value: '0.001',
        }).catch(() => 'lost' as const)
        answers.push(answer)
        if (++answered === 60 && !killed) killed = victim.process.kill('SIGKILL')
      }
    }
    await Promise.all(Array.from({ length: 16 }, worker))
    await killed
    expect(answers).toHaveLength(total)
    const accepted = answers.filter((answer): answer is Answer => answer !== 'lost' && answer.status === 200)
    const unexpected = answers.filter((answer) => answer !== 'lost' && answer.status !== 200)
    expect(unexpected).toEqual([])
    expect(accepted.length).toBeGreaterThan(100)

    // Before any restart: the survivor leads the tracker now and confirms every accepted send.
    await waitUntil(
      async () => ((await advisoryLockHolder(trackerLock)) === survivor.name ? true : undefined),
      15_000,
      `${survivor.name} to take the tracker lock over`,
    )
    // (An answer still `queued` met a broadcast error; it is retried once stale, 30 s, or at restart.)
    const submittedIds = new Set(
      accepted
        .filter((answer) => answer.body.status === 'submitted')
        .map((answer) => answer.body.transaction.id as string),
    )
    let unconfirmed: string[] = []
    await waitUntil(
      async () => {
        const records = (await Promise.all(wallets.map(transactionsOf))).flat()
        unconfirmed = records
          .filter((record) => submittedIds.has(record.id) && record.status !== 'confirmed')
          .map((record) => `${record.id}:${record.status}`)
        return unconfirmed.length === 0 ? true : undefined
      },
      30_000,
      'the survivor to confirm every accepted send',
    ).catch((error: Error) => {
      throw new Error(`${error.message}; unconfirmed: ${unconfirmed.join(', ')}`)
    })
    const stranded = (await Promise.all(wallets.map(transactionsOf)))
      .flat()
      .filter((r) => !final.has(r.status))

    // The killed replica comes back (on a new port) and reconciles what it left behind.
    const restarted = await cluster.startReplica(victim.name)
    if (victim === a) a = restarted
    else b = restarted
    const records = await waitUntil(() => allFinal(wallets), 60_000, 'every intent to reach a final status')
    console.info(
      `burst: ${accepted.length} accepted (${submittedIds.size} submitted), ${answers.length - accepted.length} lost with ${victim.name}, ` +
        `${stranded.length} stranded until its restart, ${records.length} intents in the database`,
    )
    // Every intent confirmed; one that is not is shown with its error, nonce and the answer it got.
    const answerOf = new Map(
      accepted.map((answer) => [answer.body.transaction.id as string, answer.body.status]),
    )
    const notConfirmed = records
      .filter((record) => record.status !== 'confirmed')
      .map(({ id, status, nonce, error }) => ({
        id,
        status,
        nonce,
        error,
        answered: answerOf.get(id) ?? 'lost',
      }))
    expect(notConfirmed).toEqual([])
    expect(
      accepted.filter((answer) => !records.some((record) => record.id === answer.body.transaction.id)),
    ).toEqual([])
    for (const wallet of wallets) await expectNoncesSound(wallet, records)

    // Webhooks: every tx.confirmed event of these txs reached the receiver, under its event id.
    const confirmedIds = new Set(records.map((record) => record.id))
    const events = (await storage.readEvents('default', { limit: 100_000 })).filter(
      (event) =>
        event.type === 'tx.confirmed' &&
        confirmedIds.has((event.data as { transactionId: string }).transactionId),
    )
    expect(events).toHaveLength(records.length)
    const delivered = await waitUntil(
      async () => {
        const ids = new Set(receiver.received.map((entry) => entry.headers['webhook-id']))
        return events.every((event) => ids.has(event.id)) ? receiver.received : undefined
      },
      60_000,
      'every tx_confirmed webhook',
    )
    // At-least-once: a redelivery carries the same id and the same body.
    const bodies = new Map<string, string>()
    for (const entry of delivered as Received[]) {
      const id = String(entry.headers['webhook-id'])
      expect(entry.json.id).toBe(id)
      expect(bodies.get(id) ?? entry.body).toBe(entry.body)
      bodies.set(id, entry.body)
    }
  }, 240_000)
})
