import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { expect, it } from 'vitest'
import {
  eventsOf,
  freshAddress,
  fundedWallet,
  storedTransaction,
  type TestNode,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'
import { raiseBaseFee, withoutAutomine } from '../helpers/mempool.js'

/** Fee spikes past the fee cap, with automine off, on `node`. */
export function stuckTransactionsFlow(node: TestNode): void {
  let devnet: Devnet
  let aw: AgentWallet

  // The tracker may raise a stuck tx's max fee to at most twice its first one.
  useDevnetAgentWallet(
    (started) => ({ devnet, aw } = started),
    {
      replaceStuckAfterMs: 100,
      maxFeeBumpMultiplier: 2,
    },
    { node },
  )

  it('a tx the chain prices past the fee cap is shown stuck, with tx.stuck once, and mines as signed when fees fall', async () => {
    const stuckEvents = eventsOf(aw, 'tx.stuck')
    const wallet = await fundedWallet(aw, devnet, '5')
    let id = ''
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      id = transaction.id
      const first = await storedTransaction(aw, id)
      const firstMax = BigInt(first.gas!.maxFeePerGas)
      // The market moves to 10× its max fee: a raise would pass 2× the first fee.
      await raiseBaseFee(devnet, firstMax * 10n)
      await expect
        .poll(async () => (await aw.getTransaction({ transaction: id })).transaction.stuck, {
          timeout: 10_000,
        })
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
      expect(stuckEvents.map((event) => (event.data as { transactionId: string }).transactionId)).toEqual([
        id,
      ])
      expect(stuckEvents[0]!.data).toMatchObject({ reason: 'fee_cap_reached', hash: first.hash })
    })
    const done = await aw.waitForTransaction({ transaction: id })
    if (node === 'anvil') {
      // anvil evicts a tx priced under the base fee of the block it mines (EDR and geth keep it
      // waiting): its rebroadcast is refused, the node then says it does not know the hash, and the
      // tx is failed — truthfully, as the chain never mined it and its nonce is free.
      expect(done.status).toBe('failed')
      expect((await storedTransaction(aw, id)).error).toMatchObject({ code: 'transaction_failed' })
      const receipt = await devnet.provider.request({
        method: 'eth_getTransactionReceipt',
        params: [done.hash],
      })
      expect(receipt).toBeNull()
      return
    }
    // Back at normal fees the original signature mines as it was, and is no longer shown stuck.
    expect(done.status).toBe('confirmed')
    expect((await aw.getTransaction({ transaction: id })).transaction.stuck).toBeUndefined()
  })

  it('a stuck tx sped up past the cap with an explicit maxFeePerGas is no longer stuck, and mines under the new hash', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      const firstMax = BigInt((await storedTransaction(aw, transaction.id)).gas!.maxFeePerGas)
      await raiseBaseFee(devnet, firstMax * 10n)
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
}
