import { type AgentWallet, isAgentWalletError, type SkippedStep, trackTransactions } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, type Hex, numberToHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  startDevnet,
  storedTransaction,
} from '../helpers/devnetAgentWallet.js'
import { type FaultyChain, faults, faultyProvider } from '../helpers/faultyChain.js'
import { withoutAutomine } from '../helpers/mempool.js'
import { reorgPoint, reorgTo } from '../helpers/reorg.js'

// Issue #42, item 6: a tracker step the node fails (a fee or balance read, a replacement's or a
// reorged tx's broadcast, the next nonce after a reorg) is reported, counted on /metrics, and done
// again by the next pass — not skipped silently. The tracker runs only when a test calls `pass()`;
// the stale-tx rebroadcast waits 10 minutes, so a retry seen here is the next pass's own.
let devnet: Devnet
let chain: FaultyChain
let aw: AgentWallet
const heard: unknown[] = []

beforeAll(async () => {
  devnet = await startDevnet()
  const faulty = faultyProvider(devnet.provider)
  chain = faulty
  aw = await agentWalletOn(devnet, {
    chains: {
      devnet: { provider: faulty.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    track: false,
    finalityDepth: 5,
    replaceStuckAfterMs: 0,
    rebroadcastAfterMs: 600_000,
    onBackgroundError: (error) => heard.push(error),
  })
})
afterAll(async () => {
  await aw?.close()
  await devnet?.close()
})

const pass = () => trackTransactions(aw.context)
const skipped = (step: SkippedStep) => aw.context.skipped.total(step, 'devnet')
/** What `onBackgroundError` heard about one step: code and details. */
const reportsOf = (step: SkippedStep) =>
  heard.flatMap((error) =>
    isAgentWalletError(error) && error.details?.step === step
      ? [{ code: error.code, details: error.details }]
      : [],
  )
const nodeKnows = (hash: Hex) =>
  devnet.provider.request({ method: 'eth_getTransactionByHash', params: [hash] }).then((tx) => tx !== null)

describe.each([
  ['replacement_fees', 'eth_getBlockByNumber'],
  ['replacement_balance', 'eth_getBalance'],
  ['replacement_broadcast', 'eth_sendRawTransaction'],
] as const)('a stuck tx whose replacement meets a failed %s (%s)', (step, method) => {
  it('is reported with the step, counted, and replaced by the next pass', async () => {
    chain.setPlan([])
    const wallet = await fundedWallet(aw, devnet, '1')
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
      const first = await storedTransaction(aw, transaction.id)
      // The base fee jumps past what the tx may pay: it is stuck, and due for a replacement.
      await devnet.provider.request({
        method: 'hardhat_setNextBlockBaseFeePerGas',
        params: [numberToHex(BigInt(first.gas?.maxFeePerGas ?? 0) * 3n)],
      })
      await devnet.mine()
      const before = skipped(step)
      chain.setPlan([{ method, fault: faults.rateLimited }])
      await pass()
      chain.setPlan([])
      expect(skipped(step)).toBe(before + 1)
      expect(reportsOf(step).at(-1)).toEqual({
        code: 'chain_unavailable',
        details: expect.objectContaining({ step, chain: 'devnet', transactionId: transaction.id }),
      })
      const after = await storedTransaction(aw, transaction.id)
      // A read failed: nothing was signed. The broadcast failed: signed and committed, not with the node.
      if (step === 'replacement_broadcast') {
        expect(after.hash).not.toBe(first.hash)
        expect(await nodeKnows(after.hash as Hex)).toBe(false)
      } else expect(after.hash).toBe(first.hash)

      await pass()
      const replaced = await storedTransaction(aw, transaction.id)
      expect(replaced.replaced?.map((version) => version.hash)).toEqual([first.hash])
      expect(await nodeKnows(replaced.hash as Hex)).toBe(true)
      expect(skipped(step)).toBe(before + 1)
    })
  })
})

describe('a reorged tx whose rebroadcast and next-nonce read fail', () => {
  it('is reported and counted for each, then sent again and its wallet’s next nonce re-derived by the next pass', async () => {
    chain.setPlan([])
    const wallet = await fundedWallet(aw, devnet, '1')
    const point = await reorgPoint(devnet)
    const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
    for (let i = 0; i < 20 && (await storedTransaction(aw, transaction.id)).status !== 'confirmed'; i++)
      await pass()
    const mined = await storedTransaction(aw, transaction.id)
    expect(mined.status).toBe('confirmed')
    // Our stored next nonce ran ahead of the chain: only a re-derivation from the node brings it back.
    const nonceId = `${devnet.chain.id}:${(wallet.address as Address).toLowerCase()}`
    await aw.context.storage.transaction([], (tx) => tx.put('nonces', { id: nonceId, next: 7 }))
    await reorgTo(point, { mine: 3 })

    const before = { rebroadcast: skipped('reorg_rebroadcast'), nonce: skipped('reorg_next_nonce') }
    chain.setPlan([
      { method: 'eth_sendRawTransaction', fault: faults.unavailable },
      { method: 'eth_getTransactionCount', fault: faults.rateLimited },
    ])
    await pass()
    chain.setPlan([])
    expect((await storedTransaction(aw, transaction.id)).status).toBe('submitted')
    expect(await nodeKnows(mined.hash as Hex)).toBe(false)
    expect(skipped('reorg_rebroadcast')).toBe(before.rebroadcast + 1)
    expect(skipped('reorg_next_nonce')).toBe(before.nonce + 1)
    expect(reportsOf('reorg_rebroadcast').at(-1)).toEqual({
      code: 'chain_unavailable',
      details: expect.objectContaining({ chain: 'devnet', transactionId: transaction.id }),
    })
    expect(reportsOf('reorg_next_nonce').at(-1)?.code).toBe('chain_unavailable')
    expect(await aw.context.storage.get('nonces', nonceId)).toMatchObject({ next: 7 })

    await pass()
    expect(await nodeKnows(mined.hash as Hex)).toBe(true)
    expect(await aw.context.storage.get('nonces', nonceId)).toMatchObject({ next: 1 })
    for (let i = 0; i < 20 && (await storedTransaction(aw, transaction.id)).status !== 'confirmed'; i++)
      await pass()
    expect((await storedTransaction(aw, transaction.id)).status).toBe('confirmed')
    expect(skipped('reorg_rebroadcast')).toBe(before.rebroadcast + 1)
    expect(skipped('reorg_next_nonce')).toBe(before.nonce + 1)
  })
})
