import type { AgentWallet } from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { createApp, createLogger, type RunningServer } from '@agentwallet/koa'
import { type Address, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  agentWalletBehindFaultyRpc,
  type FaultyRpcServer,
  faults,
} from '../../../test/helpers/faultyChain.js'

// Issue #42, item 1, over HTTP: the server's chain is an RPC proxy that answers 30% of requests 503 or
// -32005 before the node sees them. A send is answered 2xx (queued or submitted) or 503
// chain_unavailable — never `failed` — and every accepted one is confirmed by the tracker.
const adminKey = 'aw_test_root_admin_key_0123456789abcdef'
let devnet: Devnet
let proxy: FaultyRpcServer
let agentWallet: AgentWallet
let server: RunningServer

beforeAll(async () => {
  devnet = await createDevnet()
  ;({ proxy, aw: agentWallet } = await agentWalletBehindFaultyRpc(devnet, { seed: 7 }))
  await agentWallet.bootstrapAdmin({ adminKey })
  server = await createApp({
    agentWallet,
    rateLimit: false,
    logger: createLogger({ level: 'silent' }),
  }).listen({
    port: 0,
  })
})
afterAll(async () => {
  await server?.close()
  await agentWallet?.close()
  await proxy?.close()
  await devnet?.close()
})

type Answer = {
  status: number
  body: {
    wallet?: { address: Address }
    transaction?: { id: string; hash: string | null; status: string; error: unknown }
    error?: { code: string }
  }
}

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Answer['body'] }
}

it('50 sends from 5 wallets at 30% request loss: 2xx or 503, none failed, every accepted one confirmed', async () => {
  const wallets: Address[] = []
  for (let i = 0; i < 5; i++) {
    const created = await call('POST', '/wallet/create', { agentName: `loss-${i}` })
    const address = created.body.wallet?.address as Address
    await devnet.faucet(address, parseEther('10'))
    wallets.push(address)
  }
  proxy.setPlan(({ random }) => {
    if (random() >= 0.3) return undefined
    return random() < 0.5 ? faults.unavailable : faults.rateLimited
  })
  const started = Date.now()
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      call('POST', `/wallet/${wallets[i % 5]}/send`, {
        to: privateKeyToAccount(generatePrivateKey()).address,
        value: '0.001',
      }),
    ),
  )
  expect(proxy.count({ method: 'eth_sendRawTransaction' })).toBeGreaterThan(0)
  const refused = answers.filter((answer) => answer.status >= 300)
  expect(refused.map((answer) => [answer.status, answer.body.error?.code])).toEqual(
    refused.map(() => [503, 'chain_unavailable']),
  )
  const accepted = answers.flatMap((answer) => (answer.status < 300 ? [answer.body.transaction!] : []))
  expect(accepted.filter((transaction) => transaction.status === 'failed')).toEqual([])
  expect(accepted.length).toBeGreaterThan(25)

  // The faults stay on; the tracker takes every accepted send to the chain.
  const pending = new Set(accepted.map((transaction) => transaction.id))
  const ended: { id: string; status: string }[] = []
  while (pending.size > 0 && Date.now() - started < 25_000) {
    for (const id of pending) {
      const read = await agentWallet.context.storage.get('transactions', id)
      if (read?.status === 'confirmed' || read?.status === 'failed') {
        ended.push({ id, status: read.status })
        pending.delete(id)
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  expect([...pending]).toEqual([])
  expect(ended.filter((record) => record.status !== 'confirmed')).toEqual([])
  // The API says so too, and the chain holds each wallet's sends once.
  proxy.setPlan([])
  const sample = await call('GET', `/wallet/tx/${accepted[0]?.id}`)
  expect(sample.body.transaction?.status).toBe('confirmed')
  for (const [index, wallet] of wallets.entries()) {
    const mined = await devnet.provider.request({
      method: 'eth_getTransactionCount',
      params: [wallet, 'latest'],
    })
    const ours = answers.filter((answer, i) => i % 5 === index && answer.status < 300).length
    expect(Number(mined)).toBe(ours)
  }
})
