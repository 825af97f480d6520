import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type AgentWallet, memoryStorage, type TransactionRecord, trackTransactions } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { sqliteStorage } from '@agentwallet/sqlite'
import { type Address, type Hex, keccak256, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  publicClientOf,
  startDevnet,
  storedTransaction,
} from '../helpers/devnetAgentWallet.js'
import { type Fault, faults, faultyProvider } from '../helpers/faultyChain.js'

let devnet: Devnet
const closers: AgentWallet[] = []

beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  for (const aw of closers) await aw.close()
  await devnet?.close()
})

/** The "does the node know it?" read and viem's two retries of it on a local chain: all lost. */
const lostReads = 3

/**
 * The devnet behind a proxy that loses answers (the shared `faultyProvider`, seeded). A raw tx
 * `loses` picks is forwarded — the node takes it — and its answer lost (`lostAs`, default `-32005`
 * limit exceeded), and so are the reads of it by hash that follow (the sender's "does the node know
 * it?"). `drops` picks raw txs answered -32005 and never forwarded (the proxy's limit hit first).
 * `refuses` picks raw txs answered "nonce too low" (-32000, a definite refusal) without forwarding;
 * `blindRead` then loses the reads that follow it too. `counts` tells what it did.
 */
function lossyNode(options: {
  seed?: number
  loses?: (random: () => number) => boolean
  lostAs?: Fault
  drops?: () => boolean
  refuses?: () => boolean
  blindRead?: boolean
}) {
  const unreadable = new Map<Hex, number>()
  const counts = { lost: 0, refused: 0 }
  const chain = faultyProvider(devnet.provider, {
    seed: options.seed ?? 1,
    plan: ({ method, params, random }) => {
      if (method === 'eth_sendRawTransaction') {
        const hash = keccak256(params[0] as Hex)
        if (options.refuses?.()) {
          counts.refused++
          if (options.blindRead) unreadable.set(hash, lostReads)
          return faults.nonceTooLow
        }
        const dropped = options.drops?.() ?? false
        if (!dropped && !options.loses?.(random)) return undefined
        counts.lost++
        unreadable.set(hash, lostReads)
        return dropped ? faults.rateLimited : (options.lostAs ?? faults.lostAnswer(faults.rateLimited))
      }
      if (method !== 'eth_getTransactionByHash') return undefined
      const hash = params[0] as Hex
      const left = unreadable.get(hash) ?? 0
      if (left === 0) return undefined
      unreadable.set(hash, left - 1)
      return faults.rateLimited
    },
  })
  return { provider: chain.provider, counts }
}

/** An AgentWallet whose chain is `node`; `config` as for `agentWalletOn`. */
async function on(node: ReturnType<typeof lossyNode>, config: Parameters<typeof agentWalletOn>[1] = {}) {
  const aw = await agentWalletOn(devnet, {
    chains: { devnet: { provider: node.provider, chainId: 31337, contracts: devnet.addressBook } },
    ...config,
  })
  closers.push(aw)
  return aw
}

/** A node's answer that says nothing about the tx, met after the node took it. */
const internalError = faults.lostAnswer({ kind: 'rpcError', code: -32603, message: 'internal error' })

/** Loses the answer to the first `n` raw txs. */
const firstLost = (n: number) => {
  let left = n
  return () => left-- > 0
}

/** The stored events of the default tenant of one type about one transaction. */
async function eventsAbout(aw: AgentWallet, type: string, transactionId: string) {
  const events = await aw.context.storage.readEvents('default', { after: 0, limit: 100_000 })
  return events.filter(
    (event) =>
      event.type === type && (event.data as { transactionId?: string }).transactionId === transactionId,
  )
}

/** How many txs the node has mined from `address` (its mined nonce). */
const minedNonce = (address: Address) => publicClientOf(devnet).getTransactionCount({ address })

describe('a broadcast whose answer is lost', () => {
  it('is never answered failed: over 50 sends with ~30% lost answers every one confirms, as many as the node mined', async () => {
    const node = lossyNode({ seed: 26, loses: (random) => random() < 0.3 })
    const aw = await on(node)
    const wallet = await fundedWallet(aw, devnet, '10')
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' }),
      ),
    )
    // Answers were lost (the test is not vacuous), yet none of the 50 sends is answered failed.
    expect(node.counts.lost).toBeGreaterThan(5)
    expect(answers.filter((answer) => answer.status === 'failed')).toEqual([])
    const done = await Promise.all(
      answers.map((answer) => aw.waitForTransaction({ transaction: answer.transaction.id })),
    )
    expect(done.map((answer) => answer.status)).toEqual(Array(50).fill('confirmed'))
    const { transactions } = await aw.listHistory({ wallet: wallet.address, limit: 100 })
    const confirmed = transactions.filter((tx) => tx.status === 'confirmed')
    expect(confirmed).toHaveLength(await minedNonce(wallet.address))
    expect(new Set(confirmed.map((tx) => tx.nonce)).size).toBe(50)
  })

  it('answers queued with its hash when the node took it and answered an internal error, and the tracker confirms it', async () => {
    // -32603 is no rate limit: the node was reached, and its answer says nothing about the tx.
    const node = lossyNode({ loses: firstLost(1), lostAs: internalError })
    const aw = await on(node)
    const wallet = await fundedWallet(aw, devnet, '1')
    const to = freshAddress()
    const answer = await aw.send({ wallet: wallet.address, to, value: '0.1' })
    expect(node.counts.lost).toBe(1)
    expect(answer.status).toBe('queued')
    expect(answer.hash).toMatch(/^0x[0-9a-f]{64}$/)
    const done = await aw.waitForTransaction({ transaction: answer.transaction.id })
    expect([done.status, done.hash]).toEqual(['confirmed', answer.hash])
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.1'))
  })

  it('is the same tx for a retry under the same idempotency key: never sent twice', async () => {
    const node = lossyNode({ loses: firstLost(1) })
    const aw = await on(node, { rebroadcastAfterMs: 600_000 })
    const wallet = await fundedWallet(aw, devnet, '1')
    const to = freshAddress()
    const first = await aw.send({ wallet: wallet.address, to, value: '0.1' }, { idempotencyKey: 'lost-1' })
    const retry = await aw.send({ wallet: wallet.address, to, value: '0.1' }, { idempotencyKey: 'lost-1' })
    expect(retry.transaction.id).toBe(first.transaction.id)
    expect(retry.hash).toBe(first.hash)
    expect(retry.status).not.toBe('failed')
    // The tracker finds it mined (rebroadcast is off for 10 minutes: it asks the chain, by hash).
    await aw.reconcile()
    const done = await aw.waitForTransaction({ transaction: first.transaction.id })
    expect(done.status).toBe('confirmed')
    expect(await minedNonce(wallet.address)).toBe(1)
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.1'))
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(1)
  })
})

describe('a lost send whose nonce another tx took', () => {
  it('fails once the chain shows another tx mined at its nonce, and fills nothing', async () => {
    const node = lossyNode({ drops: firstLost(1) })
    // The tracker waits (10 minutes) until the other tx is in: then `reconcile` is its pass.
    const aw = await on(node, { rebroadcastAfterMs: 600_000 })
    const wallet = await fundedWallet(aw, devnet, '1')
    const answer = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    expect(answer.status).toBe('queued')
    // Another process with the same key (an import elsewhere) uses nonce 0 first.
    const signer = await aw.context.vault.getSigner(wallet.address)
    const fees = await publicClientOf(devnet).estimateFeesPerGas()
    const other = await signer.signTransaction({
      type: 'eip1559',
      chainId: 31337,
      nonce: 0,
      to: wallet.address,
      value: 0n,
      gas: 21_000n,
      ...fees,
    })
    await devnet.provider.request({ method: 'eth_sendRawTransaction', params: [other] })
    await aw.reconcile()
    const done = await aw.waitForTransaction({ transaction: answer.transaction.id })
    expect(done).toMatchObject({ status: 'failed', transaction: { error: { code: 'transaction_failed' } } })
    expect(await storedTransaction(aw, answer.transaction.id)).toMatchObject({ nonceSettled: true })
    const records = await aw.context.storage.query('transactions', { where: { walletId: wallet.id } })
    expect(records).toHaveLength(1)
    expect(await minedNonce(wallet.address)).toBe(1)
  })
})

describe('a definite refusal', () => {
  it('fails the tx when the node then says it does not know it, and the next send takes its nonce', async () => {
    const node = lossyNode({ refuses: firstLost(1) })
    const aw = await on(node)
    const wallet = await fundedWallet(aw, devnet, '1')
    const refused = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    expect(node.counts.refused).toBe(1)
    expect(refused.transaction).toMatchObject({ status: 'failed', error: { code: 'transaction_failed' } })
    const next = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    const done = await aw.waitForTransaction({ transaction: next.transaction.id })
    expect([done.status, done.transaction.nonce]).toEqual(['confirmed', 0])
    // The refused one, watched until the chain showed another tx at its nonce, stays failed.
    await expect
      .poll(() => storedTransaction(aw, refused.transaction.id))
      .toMatchObject({ status: 'failed', nonceSettled: true })
  })

  it('does not fail the tx while the node cannot say whether it has it; it is sent again and confirms', async () => {
    const node = lossyNode({ refuses: firstLost(1), blindRead: true })
    const aw = await on(node)
    const wallet = await fundedWallet(aw, devnet, '1')
    const answer = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    expect(node.counts.refused).toBe(1)
    expect(answer.status).toBe('queued')
    const done = await aw.waitForTransaction({ transaction: answer.transaction.id })
    expect([done.status, done.hash, done.transaction.nonce]).toEqual(['confirmed', answer.hash, 0])
  })
})

describe('a tx reported failed that the chain mined', () => {
  /** A send whose answer is lost, on a wallet that never tracks: the stored record, still queued. */
  async function lostSend(storage: ReturnType<typeof memoryStorage>, masterKey: string) {
    const aw = await on(lossyNode({ loses: firstLost(1) }), { storage, masterKey, track: false })
    const wallet = await fundedWallet(aw, devnet, '1')
    const to = freshAddress()
    const answer = await aw.send({ wallet: wallet.address, to, value: '0.1' })
    expect(answer.status).not.toBe('failed')
    return { wallet, to, record: await storedTransaction(aw, answer.transaction.id) }
  }

  /** The record as the code before #26 saved such a send: failed, with no word on its nonce. */
  const asFailedBefore26 = (record: TransactionRecord) =>
    ({
      ...record,
      status: 'failed',
      error: { code: 'transaction_failed', message: 'The chain rejected the request' },
    }) as TransactionRecord

  it('becomes confirmed, with tx.confirmed saying recovered: a failed record written before #26, at start-up', async () => {
    const storage = memoryStorage()
    const { to, record } = await lostSend(storage, '44'.repeat(32))
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.1'))
    await storage.transaction([], (tx) => tx.put('transactions', asFailedBefore26(record)))

    const restarted = await on(lossyNode({}), { storage, masterKey: '44'.repeat(32) })
    const done = await restarted.waitForTransaction({ transaction: record.id })
    expect([done.status, done.hash]).toEqual(['confirmed', record.hash])
    const confirmed = await eventsAbout(restarted, 'tx.confirmed', record.id)
    expect(confirmed.map((event) => event.data)).toEqual([
      expect.objectContaining({ recovered: true, hash: record.hash, status: 'confirmed' }),
    ])
  })

  it('becomes confirmed on a tracker pass when it was failed while its nonce was still open', async () => {
    const storage = memoryStorage()
    const { record } = await lostSend(storage, '55'.repeat(32))
    await storage.transaction([], (tx) =>
      tx.put('transactions', { ...asFailedBefore26(record), nonceSettled: false } as TransactionRecord),
    )
    const running = await on(lossyNode({}), { storage, masterKey: '55'.repeat(32), track: false })
    await trackTransactions(running.context)
    expect(await storedTransaction(running, record.id)).toMatchObject({
      status: 'confirmed',
      hash: record.hash,
    })
    expect(await eventsAbout(running, 'tx.confirmed', record.id)).toHaveLength(1)
  })
})

describe('a crash between a lost answer and the tracker’s next pass', () => {
  it('confirms the tx after restart, once', async () => {
    const storage = memoryStorage()
    const dying = await on(lossyNode({ loses: firstLost(1), lostAs: internalError }), {
      storage,
      masterKey: '66'.repeat(32),
      track: false,
    })
    const wallet = await fundedWallet(dying, devnet, '1')
    const to = freshAddress()
    const answer = await dying.send({ wallet: wallet.address, to, value: '0.1' })
    expect(answer.status).not.toBe('failed')
    // The moment of death: what the store holds now; the dying process never runs a tracker pass.
    const afterCrash = memoryStorage({ snapshot: storage.snapshot() })

    const restarted = await on(lossyNode({}), { storage: afterCrash, masterKey: '66'.repeat(32) })
    const done = await restarted.waitForTransaction({ transaction: answer.transaction.id })
    expect([done.status, done.hash]).toEqual(['confirmed', answer.hash])
    expect(await eventsAbout(restarted, 'tx.confirmed', answer.transaction.id)).toHaveLength(1)
    expect(await minedNonce(wallet.address)).toBe(1)
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.1'))
    expect((await restarted.listHistory({ wallet: wallet.address })).count).toBe(1)
  })

  it('confirms the tx once when the wallet is closed before any tracker pass and reopened on its SQLite file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aw-lost-'))
    const filename = join(dir, 'agentwallet.db')
    const masterKey = '77'.repeat(32)
    const chainOf = (node: ReturnType<typeof lossyNode>) => ({
      devnet: { provider: node.provider, chainId: 31337, contracts: devnet.addressBook },
    })
    try {
      const first = sqliteStorage({ filename })
      const closing = await agentWalletOn(devnet, {
        storage: first,
        masterKey,
        track: false,
        chains: chainOf(lossyNode({ loses: firstLost(1), lostAs: internalError })),
      })
      const wallet = await fundedWallet(closing, devnet, '1')
      const to = freshAddress()
      const answer = await closing.send({ wallet: wallet.address, to, value: '0.1' })
      expect(answer.status).toBe('queued')
      await closing.close()
      await first.close()

      const second = sqliteStorage({ filename })
      const reopened = await agentWalletOn(devnet, {
        storage: second,
        masterKey,
        chains: chainOf(lossyNode({})),
      })
      try {
        const done = await reopened.waitForTransaction({ transaction: answer.transaction.id })
        expect([done.status, done.hash]).toEqual(['confirmed', answer.hash])
        expect(await eventsAbout(reopened, 'tx.confirmed', answer.transaction.id)).toHaveLength(1)
        expect(await minedNonce(wallet.address)).toBe(1)
        expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.1'))
      } finally {
        await reopened.close()
        await second.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
