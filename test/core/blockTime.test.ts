import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

// An hour between blocks: no block comes before the test starts the timer itself.
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {}, { blockTime: 3_600 })

it('a send on a chain with a block time is submitted, and confirmed by the next block', async () => {
  const client = publicClientOf(devnet)
  const wallet = await fundedWallet(aw, devnet, '1')
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
  expect(transaction.status).toBe('submitted')
  expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(head)
  await devnet.provider.request({ method: 'evm_setIntervalMining', params: [50] })
  const done = await aw.waitForTransaction({ transaction: transaction.id })
  expect(done.status).toBe('confirmed')
  expect(done.blockNumber).toBe(Number(head) + 1)
})
