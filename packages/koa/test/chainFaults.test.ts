import { type AgentWallet, createAgentWallet, memoryStorage } from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { createApp, createLogger, type RunningServer } from '@agentwallet/koa'
import { type Address, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type FaultyChain, faults, faultyProvider, readMethod } from '../../../test/helpers/faultyChain.js'

const adminKey = 'aw_test_root_admin_key_0123456789abcdef'
let devnet: Devnet
let agentWallet: AgentWallet
let server: RunningServer
let chain: FaultyChain

beforeAll(async () => {
  devnet = await createDevnet()
  const faulty = faultyProvider(devnet.provider, { seed: 26 })
  chain = faulty
  agentWallet = await createAgentWallet({
    chains: {
      devnet: { provider: faulty.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 20,
    checkOperations: true,
  })
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
  await devnet?.close()
})

type Answer = {
  success: boolean
  wallet: { address: Address }
  transaction: { id: string }
  error?: { code: string; details?: unknown }
}

async function post(path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return {
    status: response.status,
    body: (await response.json()) as Answer,
    retryAfter: response.headers.get('retry-after'),
  }
}

it('at 30% 503 / -32005 on reads, a send answers 2xx or 503 chain_unavailable with Retry-After — never 500 or 422 — and every accepted send confirms', async () => {
  const wallets: Address[] = []
  for (const name of ['a', 'b', 'c']) {
    const created = await post('/wallet/create', { agentName: name })
    wallets.push(created.body.wallet.address)
    await devnet.faucet(created.body.wallet.address, parseEther('10'))
  }
  chain.setPlan(({ method, random }) => {
    if (!readMethod(method) || random() >= 0.3) return undefined
    return random() < 0.5 ? faults.unavailable : faults.rateLimited
  })
  const accepted: string[] = []
  const refused: unknown[] = []
  for (let i = 0; i < 30; i++) {
    const to = privateKeyToAccount(generatePrivateKey()).address
    const answer = await post(`/wallet/${wallets[i % wallets.length]}/send`, { to, value: '0.001' })
    if (answer.status === 200 || answer.status === 202) accepted.push(answer.body.transaction.id)
    else refused.push({ status: answer.status, code: answer.body.error?.code, retryAfter: answer.retryAfter })
  }
  expect(chain.count()).toBeGreaterThan(10)
  for (const answer of refused)
    expect(answer).toEqual({ status: 503, code: 'chain_unavailable', retryAfter: '2' })
  expect(accepted.length).toBeGreaterThan(0)

  chain.setPlan([])
  for (const id of accepted) {
    expect((await agentWallet.waitForTransaction({ transaction: id })).status).toBe('confirmed')
  }
})

it('a rate-limited send read answers 503 with Retry-After, in the envelope', async () => {
  chain.setPlan([])
  const created = await post('/wallet/create', { agentName: 'limited' })
  const address = created.body.wallet.address
  await devnet.faucet(address, parseEther('1'))
  chain.setPlan([{ method: 'eth_getTransactionCount', fault: faults.rateLimited }])
  const answer = await post(`/wallet/${address}/send`, { to: address, value: '0.001' })
  chain.setPlan([])
  expect(answer.status).toBe(503)
  expect(answer.retryAfter).toBe('2')
  expect(answer.body).toMatchObject({
    success: false,
    error: { code: 'chain_unavailable', details: { chain: 'devnet' } },
  })
})
