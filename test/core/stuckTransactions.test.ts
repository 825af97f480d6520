import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { numberToHex, parseGwei } from 'viem'
import { expect, it } from 'vitest'
import {
  eventsOf,
  freshAddress,
  fundedWallet,
  storedTransaction,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

// The tracker may raise a stuck tx's max fee to at most twice its first one.
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  replaceStuckAfterMs: 100,
  maxFeeBumpMultiplier: 2,
})

/** Mines the next blocks at `baseFee` wei, so txs whose max fee is below it stay in the mempool. */
async function raiseBaseFee(baseFee: bigint) {
  await devnet.provider.request({
    method: 'hardhat_setNextBlockBaseFeePerGas',
    params: [numberToHex(baseFee)],
  })
  await devnet.mine()
}

/** Runs `body` with automine off (txs wait in the mempool until mined), then restores it and 1 gwei. */
async function withoutAutomine(body: () => Promise<void>) {
  await devnet.provider.request({ method: 'evm_setAutomine', params: [false] })
  try {
    await body()
  } finally {
    await devnet.provider.request({ method: 'evm_setAutomine', params: [true] })
    await devnet.provider.request({
      method: 'hardhat_setNextBlockBaseFeePerGas',
      params: [numberToHex(parseGwei('1'))],
    })
    await devnet.mine()
  }
}

it('a tx the chain prices past the fee cap is shown stuck, with tx.stuck once, and mines as signed when fees fall', async () => {
  const stuckEvents = eventsOf(aw, 'tx.stuck')
  const wallet = await fundedWallet(aw, devnet, '5')
  let id = ''
  await withoutAutomine(async () => {
    const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    id = transaction.id
    const first = await storedTransaction(aw, id)
    const firstMax = BigInt(first.gas!.maxFeePerGas)
    // The market moves to 10× its max fee: a raise would pass 2× the first fee.
    await raiseBaseFee(firstMax * 10n)
    await expect
      .poll(async () => (await aw.getTransaction({ transaction: id })).transaction.stuck, { timeout: 10_000 })
      .toBeDefined()
    const { transaction: view } = await aw.getTransaction({ transaction: id })
    expect(view).toMatchObject({ status: 'submitted', hash: first.hash })
    expect(view.stuck).toMatchObject({
      reason: 'fee_cap_reached',
      maxFeePerGas: firstMax.toString(),
      capMaxFeePerGas: (firstMax * 2n).toString(),
    })
    expect(BigInt(view.stuck!.neededMaxFeePerGas) > firstMax * 2n).toBe(true)
    // Later tracker passes find it stuck already: no second event, no replacement.
    const since = view.stuck!.since
    await new Promise((resolve) => setTimeout(resolve, 400))
    const later = await storedTransaction(aw, id)
    expect(later.stuck?.since).toBe(since)
    expect(later.replaced).toBeUndefined()
    expect(stuckEvents.map((event) => (event.data as { transactionId: string }).transactionId)).toEqual([id])
    expect(stuckEvents[0]!.data).toMatchObject({ reason: 'fee_cap_reached', hash: first.hash })
  })
  // Back at normal fees the original signature mines as it was, and is no longer shown stuck.
  const done = await aw.waitForTransaction({ transaction: id })
  expect(done.status).toBe('confirmed')
  expect((await aw.getTransaction({ transaction: id })).transaction.stuck).toBeUndefined()
})

it('a stuck tx sped up past the cap with an explicit maxFeePerGas is no longer stuck, and mines under the new hash', async () => {
  const wallet = await fundedWallet(aw, devnet, '5')
  await withoutAutomine(async () => {
    const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    const firstMax = BigInt((await storedTransaction(aw, transaction.id)).gas!.maxFeePerGas)
    await raiseBaseFee(firstMax * 10n)
    await expect
      .poll(async () => (await aw.getTransaction({ transaction: transaction.id })).transaction.stuck, {
        timeout: 10_000,
      })
      .toBeDefined()
    const { stuck } = (await aw.getTransaction({ transaction: transaction.id })).transaction
    const sped = await aw.speedUp({ transaction: transaction.id, maxFeePerGas: stuck!.neededMaxFeePerGas })
    expect(sped.transaction.stuck).toBeUndefined()
    await devnet.mine()
    const done = await aw.waitForTransaction({ transaction: transaction.id })
    expect(done).toMatchObject({ status: 'confirmed', hash: sped.transaction.hash })
  })
})
