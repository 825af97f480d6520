import { type AgentWallet, createAgentWallet, memoryStorage } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, fundedWallet, startDevnet } from '../helpers/devnetAgentWallet.js'
import { type FaultyChain, faults, faultyProvider, readMethod } from '../helpers/faultyChain.js'

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

describe('every chain read refused (rate limit on every read, retries spent)', () => {
  const dead = '0x000000000000000000000000000000000000dEaD'
  type Call = (wallet: `0x${string}`) => Promise<unknown>
  const calls: [string, Call][] = [
    ['getBalance', (wallet) => aw.getBalance({ wallet })],
    ['estimateGas', (wallet) => aw.estimateGas({ wallet, to: dead, value: '0.001' })],
    ['send', (wallet) => aw.send({ wallet, to: dead, value: '0.001' })],
    ['quoteSwap', (wallet) => aw.quoteSwap({ wallet, fromToken: 'ETH', toToken: 'USDC', amount: '0.001' })],
    ['swap', (wallet) => aw.swap({ wallet, fromToken: 'ETH', toToken: 'USDC', amount: '0.001' })],
    ['stake', (wallet) => aw.stake({ wallet, protocol: 'lido', amount: '0.001' })],
    ['getPrices', () => aw.getPrices({ tokens: ['ETH'] })],
    ['checkEnsName', () => aw.checkEnsName({ name: 'faulty.eth' })],
    ['resolveEnsName', () => aw.resolveEnsName({ name: 'faulty.eth' })],
    ['reverseEnsName', (wallet) => aw.reverseEnsName({ address: wallet })],
    ['registerEnsName', (wallet) => aw.registerEnsName({ wallet, name: 'faulty.eth' })],
    ['registerIdentity', (wallet) => aw.registerIdentity({ wallet, agentName: 'faulty', agentType: 'test' })],
    ['deploySafe', (wallet) => aw.deploySafe({ wallet, owners: [wallet], threshold: 1 })],
    ['getSafe', () => aw.getSafe({ safe: dead })],
  ]
  it.each(calls)('%s answers chain_unavailable', async (_name, call) => {
    chain.setPlan([])
    const wallet = await fundedWallet(aw, devnet, '1')
    chain.setPlan([{ method: readMethod, fault: faults.rateLimited }])
    const error = await call(wallet.address).then(
      (answer) => ({ answered: answer }),
      (e: unknown) => e,
    )
    chain.setPlan([])
    expect(error).toMatchObject({ code: 'chain_unavailable' })
  })
})
