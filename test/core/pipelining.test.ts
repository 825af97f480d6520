import {
  type AgentWallet,
  type AuditLine,
  auditLines,
  memoryStorage,
  type TransactionRecord,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Hex, parseEther, parseTransaction } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  publicClientOf,
  startDevnet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
const closers: AgentWallet[] = []

beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  for (const aw of closers) await aw.close()
  await devnet?.close()
})

type Request = { method: string; params?: unknown }

/**
 * A node in front of the devnet that holds every raw tx until `release()`; refuses, each time it
 * comes, the first signature it is given at each nonce in `refuse`; and never answers (a process that
 * dies) a raw tx `hangs` picks. `sent` lists the nonces of the raw txs the devnet was given, in order.
 */
function gatedNode(
  options: { refuse?: number[]; hangs?: (nonce: number, refused: boolean) => boolean } = {},
) {
  const refusedRaw = new Map<number, Hex>()
  const sent: number[] = []
  let open: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    open = resolve
  })
  const provider = {
    request: async (args: Request) => {
      if (args.method === 'eth_sendRawTransaction') {
        const raw = (args.params as [Hex])[0]
        const nonce = parseTransaction(raw).nonce!
        if (options.refuse?.includes(nonce) && !refusedRaw.has(nonce)) refusedRaw.set(nonce, raw)
        const refused = refusedRaw.get(nonce) === raw
        if (options.hangs?.(nonce, refused)) return new Promise<never>(() => {})
        await gate
        if (refused) throw Object.assign(new Error('rejected by policy of this node'), { code: -32003 })
        sent.push(nonce)
      }
      return devnet.provider.request(args as Parameters<Devnet['provider']['request']>[0])
    },
  }
  return { provider, sent, release: () => open() }
}

/**
 * An AgentWallet on the gated node. Its tracker rebroadcasts only txs queued for 10 minutes, so
 * what reaches the node while the gate is held is the lanes' work alone, however slow the machine.
 */
function onNode(provider: ReturnType<typeof gatedNode>['provider'], config = {}) {
  return agentWalletOn(devnet, {
    chains: { devnet: { provider, chainId: 31337, contracts: devnet.addressBook } },
    rebroadcastAfterMs: 600_000,
    ...config,
  })
}

/** Resolves once `storage` holds `count` signed txs of the wallet (their broadcasts held at the node). */
async function signedCount(storage: ReturnType<typeof memoryStorage>, walletId: string, count: number) {
  await expect
    .poll(
      async () =>
        (await storage.query('transactions', { where: { walletId } })).filter((record) => record.rawTx)
          .length,
      { timeout: 30_000, message: `${count} signed txs of the wallet, saved while broadcasts were held` },
    )
    .toBe(count)
}

/** Five sends of one funded wallet, fired at once; resolves once all are signed and saved, none broadcast. */
async function heldBurst(node: ReturnType<typeof gatedNode>) {
  const storage = memoryStorage()
  const aw = await onNode(node.provider, { storage })
  closers.push(aw)
  const wallet = await fundedWallet(aw, devnet, '10')
  const answers = Array.from({ length: 5 }, () =>
    aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' }),
  )
  await signedCount(storage, wallet.id, 5)
  return { node, storage, aw, wallet, answers }
}

describe('one wallet, sends pipelined', () => {
  it('signs and saves the next send while the one before is still at the node, and broadcasts in nonce order', async () => {
    const { node, aw, answers } = await heldBurst(gatedNode())
    // No broadcast has been answered, yet all five are signed and durable: the lock did not wait.
    node.release()
    const sent = await Promise.all(answers)
    expect(sent.map((answer) => answer.transaction.status)).toEqual(Array(5).fill('submitted'))
    expect(node.sent).toEqual([0, 1, 2, 3, 4])
    const done = await Promise.all(
      sent.map((answer) => aw.waitForTransaction({ transaction: answer.transaction.id })),
    )
    expect(done.map((answer) => answer.status)).toEqual(Array(5).fill('confirmed'))
  })

  it('refuses at acceptance a send the wallet could pay only before its txs in flight', async () => {
    const node = gatedNode()
    const aw = await onNode(node.provider)
    closers.push(aw)
    const wallet = await fundedWallet(aw, devnet, '1')
    const first = aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.4' })
    const second = aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.4' })
    // The node's balance is still 1 ETH: neither is broadcast. The third counts them.
    const third = aw
      .send({ wallet: wallet.address, to: freshAddress(), value: '0.4' })
      .catch((error) => error)
    await expect(third).resolves.toMatchObject({ code: 'insufficient_funds' })
    node.release()
    const done = await Promise.all(
      [first, second].map(async (answer) =>
        aw.waitForTransaction({ transaction: (await answer).transaction.id }),
      ),
    )
    expect(done.map((answer) => answer.status)).toEqual(['confirmed', 'confirmed'])
  })

  it('fills the nonce of a tx the node refuses below later signed ones, which are mined as signed', async () => {
    const { node, storage, aw, wallet, answers } = await heldBurst(gatedNode({ refuse: [2] }))
    const signed = await storage.query('transactions', { where: { walletId: wallet.id } })
    node.release()
    const sent = await Promise.all(answers)
    const refused = sent.find((answer) => answer.transaction.nonce === 2)!
    expect(refused.transaction).toMatchObject({ status: 'failed', error: { code: expect.any(String) } })

    const records = await storage.query('transactions', { where: { walletId: wallet.id } })
    const filler = records.find((record) => record.meta?.fillsNonceOf === refused.transaction.id)
    expect(filler).toMatchObject({ nonce: 2, to: wallet.address, amount: '0', call: { value: '0' } })
    // Its signature is in the audit trail, saved with it (docs/security.md).
    const audited: AuditLine[] = []
    for await (const line of auditLines(storage, 'default')) audited.push(line)
    expect(audited.find((line) => line.subjects.transactionId === filler!.id)).toMatchObject({
      kind: 'vault.signature',
      payload: { signed: 'nonce_filler', hash: filler!.hash, nonce: 2, fills: refused.transaction.id },
    })
    const others = sent.filter((answer) => answer.transaction.nonce !== 2)
    const done = await Promise.all(
      [...others.map((answer) => answer.transaction.id), filler!.id].map((id) =>
        aw.waitForTransaction({ transaction: id }),
      ),
    )
    expect(done.map((answer) => [answer.transaction.nonce, answer.status])).toEqual([
      [0, 'confirmed'],
      [1, 'confirmed'],
      [3, 'confirmed'],
      [4, 'confirmed'],
      [2, 'confirmed'],
    ])
    // The later ones went out as first signed: never signed again.
    for (const answer of done.slice(0, 4))
      expect(answer.hash).toBe(signed.find((record) => record.id === answer.transaction.id)!.hash)
    expect(await publicClientOf(devnet).getTransactionCount({ address: wallet.address })).toBe(5)
    // The next send takes the next nonce: none is left empty, none used twice.
    const next = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
    expect((await aw.waitForTransaction({ transaction: next.transaction.id })).transaction.nonce).toBe(5)
  })

  it('saves the filler with the failure, so a crash before its broadcast leaves it owed and sent at restart', async () => {
    const node = gatedNode({
      refuse: [1],
      // The process dies at the filler's broadcast: another signature at the refused nonce.
      hangs: (nonce, refused) => nonce === 1 && !refused,
    })
    const storage = memoryStorage()
    const dying = await onNode(node.provider, { storage, masterKey: '33'.repeat(32), track: false })
    const { wallet } = await dying.createWallet({ agentName: 'filler-crash' })
    await devnet.faucet(wallet.address, parseEther('10'))
    for (let index = 0; index < 4; index++)
      void dying.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' }).catch(() => undefined)
    await signedCount(storage, wallet.id, 4)
    node.release()
    // The moment of death: the failure and its filler are saved, the filler never reached the node.
    const filled = async () =>
      (await storage.query('transactions', { where: { walletId: wallet.id } })).find(
        (record: TransactionRecord) => record.meta?.fillsNonceOf,
      )
    await expect.poll(filled, { timeout: 30_000, message: 'the filler saved with the failure' }).toBeDefined()
    const afterCrash = memoryStorage({ snapshot: storage.snapshot() })
    const records = await afterCrash.query('transactions', { where: { walletId: wallet.id } })
    expect(records.find((record) => record.nonce === 1 && !record.meta?.fillsNonceOf)?.status).toBe('failed')
    expect(records.find((record) => record.meta?.fillsNonceOf)?.status).toBe('queued')

    const restarted = await agentWalletOn(devnet, { storage: afterCrash, masterKey: '33'.repeat(32) })
    closers.push(restarted)
    const live = records.filter((record) => record.status !== 'failed')
    const done = await Promise.all(
      live.map((record) => restarted.waitForTransaction({ transaction: record.id })),
    )
    expect(done.every((answer) => answer.status === 'confirmed')).toBe(true)
    expect(done.map((answer) => answer.transaction.nonce).sort()).toEqual([0, 1, 2, 3])
    expect(await publicClientOf(devnet).getTransactionCount({ address: wallet.address })).toBe(4)
  })
})
