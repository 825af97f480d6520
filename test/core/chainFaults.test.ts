import { type AgentWallet, createAgentWallet, memoryStorage } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, fundedWallet, startDevnet } from '../helpers/devnetAgentWallet.js'
import { type FaultyChain, faults, faultyProvider } from '../helpers/faultyChain.js'

// A node that refuses what it is asked: every refusal must reach the caller as `chain_unavailable`
// (retry later), never as `internal` or a failed transaction, and nothing must be signed meanwhile.
let devnet: Devnet
let aw: AgentWallet
let chain: FaultyChain

beforeAll(async () => {
  devnet = await startDevnet()
  const faulty = faultyProvider(devnet.provider)
  chain = faulty
  aw = await createAgentWallet({
    chains: {
      devnet: { provider: faulty.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 20,
    checkOperations: true,
  })
})
afterAll(async () => {
  await aw?.close()
  await devnet?.close()
})

describe.each([
  ['the nonce read', 'eth_getTransactionCount', faults.rateLimited],
  ['the nonce read', 'eth_getTransactionCount', faults.unavailable],
  ['the gas estimate', 'eth_estimateGas', faults.rateLimited],
  ['the head block read (base fee)', 'eth_getBlockByNumber', faults.rateLimited],
  ['the balance read', 'eth_getBalance', faults.tooManyRequests],
])('%s (%s) refused by the node', (_what, method, fault) => {
  it(`answers chain_unavailable and signs nothing (${fault.kind} ${'code' in fault ? fault.code : fault.status})`, async () => {
    chain.setPlan([])
    const wallet = await fundedWallet(aw, devnet, '1')
    chain.setPlan([{ method, fault }])
    const error = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' }).catch((e) => e)
    expect(chain.count({ method })).toBeGreaterThan(0)
    expect(error).toMatchObject({ code: 'chain_unavailable', details: { chain: 'devnet' } })
    chain.setPlan([])
    const stored = await aw.context.storage.query('transactions', { where: { walletId: wallet.id } })
    expect(stored).toEqual([])
    // The node back, the same send goes through.
    const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
    expect((await aw.waitForTransaction({ transaction: transaction.id })).status).toBe('confirmed')
  })
})

it('a read that fails once is retried: a blip costs no send', async () => {
  chain.setPlan([])
  const wallet = await fundedWallet(aw, devnet, '1')
  const before = chain.count()
  chain.setPlan([
    { method: 'eth_getTransactionCount', fault: faults.rateLimited, times: 1 },
    { method: 'eth_estimateGas', fault: faults.unavailable, times: 2 },
  ])
  const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
  expect(chain.count() - before).toBe(3)
  chain.setPlan([])
  expect((await aw.waitForTransaction({ transaction: transaction.id })).status).toBe('confirmed')
})
