import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { describe, expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  type TestNode,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

/** A tx the node drops from its mempool, on `node` (EDR: hardhat_dropTransaction; anvil: anvil_dropTransaction). */
export function droppedFlow(node: TestNode): void {
  let devnet: Devnet
  let aw: AgentWallet

  useDevnetAgentWallet((started) => ({ devnet, aw } = started), { rebroadcastAfterMs: 100 }, { node })

  describe('a tx the node drops from its mempool', () => {
    it('is broadcast again, byte for byte, and confirms once mined', async () => {
      const wallet = await fundedWallet(aw, devnet, '1')
      await devnet.provider.request({ method: 'evm_setAutomine', params: [false] })
      try {
        const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
        expect(transaction.status).toBe('submitted')
        const dropped = await devnet.provider.request({
          method: node === 'anvil' ? 'anvil_dropTransaction' : 'hardhat_dropTransaction',
          params: [transaction.hash],
        })
        // EDR answers true; anvil the dropped tx's hash.
        expect(dropped).toBe(node === 'anvil' ? transaction.hash : true)
        await expect
          .poll(
            () => devnet.provider.request({ method: 'eth_getTransactionByHash', params: [transaction.hash] }),
            {
              timeout: 5_000,
            },
          )
          .not.toBeNull()
        await devnet.mine()
        const done = await aw.waitForTransaction({ transaction: transaction.id })
        expect(done.status).toBe('confirmed')
        expect(done.hash).toBe(transaction.hash)
      } finally {
        await devnet.provider.request({ method: 'evm_setAutomine', params: [true] })
      }
    })
  })
}
