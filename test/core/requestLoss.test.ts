import type { AgentWallet, TransactionRecord } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import type { Address } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshAddress, fundedWallet, startDevnet } from '../helpers/devnetAgentWallet.js'
import { agentWalletBehindFaultyRpc, type FaultyRpcServer, faults } from '../helpers/faultyChain.js'

// Issue #42, item 1: an RPC that loses 30% of requests (503 or -32005, before the node sees them) is
// never a rejection. Sends through it are retried or left queued for the tracker, never `failed`.
let devnet: Devnet
let proxy: FaultyRpcServer
let aw: AgentWallet

beforeAll(async () => {
  devnet = await startDevnet()
  ;({ proxy, aw } = await agentWalletBehindFaultyRpc(devnet, { seed: 42 }))
})
afterAll(async () => {
  await aw?.close()
  await proxy?.close()
  await devnet?.close()
})

/** 30% of every request (reads and sends) answered 503 or -32005, never forwarded. */
const requestLoss = () =>
  proxy.setPlan(({ random }) => {
    if (random() >= 0.3) return undefined
    return random() < 0.5 ? faults.unavailable : faults.rateLimited
  })

async function settled(id: string, deadline: number): Promise<TransactionRecord> {
  for (;;) {
    const record = await aw.context.storage.get('transactions', id)
    if (!record) throw new Error(`no record ${id}`)
    if (record.status === 'confirmed' || record.status === 'failed' || Date.now() > deadline) return record
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

it('a send the node definitely refuses is failed with the node’s own reason, in the answer and the stored record', async () => {
  proxy.setPlan([])
  const wallet = await fundedWallet(aw, devnet, '1', 'refused')
  proxy.setPlan([{ method: 'eth_sendRawTransaction', fault: faults.nonceTooLow, times: 1 }])
  const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.001' })
  proxy.setPlan([])
  expect(transaction.status).toBe('failed')
  expect(transaction.error).toEqual({
    code: 'transaction_failed',
    message: 'The chain rejected the request',
    reason: 'nonce too low',
  })
  const stored = await aw.getTransaction({ transaction: transaction.id })
  expect(stored.transaction.error?.reason).toBe('nonce too low')
})

it('50 sends from 5 wallets at 30% request loss: none answered failed, every accepted one confirmed, nothing doubled', async () => {
  proxy.setPlan([])
  const wallets = await Promise.all(
    Array.from({ length: 5 }, (_, i) => fundedWallet(aw, devnet, '10', `loss-${i}`)),
  )
  requestLoss()
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      aw
        .send({
          wallet: (wallets[i % 5] as { address: Address }).address,
          to: freshAddress(),
          value: '0.001',
        })
        .then(
          ({ transaction }) => ({ accepted: transaction.id, status: transaction.status }),
          (error: { code?: string }) => ({ refused: error.code }),
        ),
    ),
  )
  expect(proxy.count({ method: 'eth_sendRawTransaction' })).toBeGreaterThan(0)
  // Refused up front (nothing signed) only as "retry later"; an accepted one is never answered failed.
  expect(answers.filter((answer) => 'refused' in answer && answer.refused !== 'chain_unavailable')).toEqual(
    [],
  )
  expect(answers.filter((answer) => 'status' in answer && answer.status === 'failed')).toEqual([])
  const accepted = answers.flatMap((answer) => ('accepted' in answer ? [answer.accepted] : []))
  expect(accepted.length).toBeGreaterThan(25)

  // The faults stay on: the tracker alone takes every accepted send to the chain.
  const started = Date.now()
  const records = await Promise.all(accepted.map((id) => settled(id, started + 30_000)))
  expect(
    records.filter((record) => record.status !== 'confirmed').map(({ id, status }) => ({ id, status })),
  ).toEqual([])
  // Every tx on chain is one of ours, once: each wallet's nonce count is its confirmed records.
  proxy.setPlan([])
  for (const wallet of wallets) {
    const mined = await devnet.provider.request({
      method: 'eth_getTransactionCount',
      params: [wallet.address, 'latest'],
    })
    const confirmed = records.filter((record) => record.walletId === wallet.id)
    expect(Number(mined)).toBe(confirmed.length)
  }
})
