import { type AgentWallet, relayerAccount, type TransactionRecord } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, parseEther } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshAddress, startDevnet } from '../helpers/devnetAgentWallet.js'
import { agentWalletBehindFaultyRpc, type FaultyRpcServer, faults } from '../helpers/faultyChain.js'

// Issue #42, item 1, for smart wallets: their sends go through the relayer's lane too. At 30% request
// loss (503 or -32005 before the node sees them) none is answered failed, none hangs, and every
// accepted one is confirmed once. A refusal in the relayer's lane used to wait for the relayer's lock
// held by the op's own submission, which waited for that refusal: the send and the tracker hung.
let devnet: Devnet
let proxy: FaultyRpcServer
let aw: AgentWallet

beforeAll(async () => {
  devnet = await startDevnet()
  ;({ proxy, aw } = await agentWalletBehindFaultyRpc(devnet, { seed: 42 }))
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
})
afterAll(async () => {
  await aw?.close()
  await proxy?.close()
  await devnet?.close()
})

/** The answer, or `hung` after `ms`: a send that never answers fails the test instead of timing it out. */
const within = <T>(ms: number, promise: Promise<T>) =>
  Promise.race([promise, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), ms))])

async function settled(id: string, deadline: number): Promise<TransactionRecord> {
  for (;;) {
    const record = await aw.context.storage.get('transactions', id)
    if (!record) throw new Error(`no record ${id}`)
    if (record.status === 'confirmed' || record.status === 'failed' || Date.now() > deadline) return record
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

it('10 smart-wallet sends at 30% request loss: none failed or hung, every accepted one confirmed once', async () => {
  const wallets: Address[] = []
  for (let i = 0; i < 2; i++) {
    const { wallet } = await aw.createWallet({ agentName: `smart-loss-${i}`, kind: 'smart' })
    await devnet.faucet(wallet.address, parseEther('5'))
    // Deployed and its session funded while the node is healthy: the sends below are plain ops.
    const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.001' })
    expect((await aw.waitForTransaction({ transaction: transaction.id })).status).toBe('confirmed')
    wallets.push(wallet.address)
  }
  proxy.setPlan(({ random }) => {
    if (random() >= 0.3) return undefined
    return random() < 0.5 ? faults.unavailable : faults.rateLimited
  })
  const recipients = Array.from({ length: 10 }, () => freshAddress())
  const answers = await Promise.all(
    recipients.map((to, i) =>
      within(
        20_000,
        aw.send({ wallet: wallets[i % 2] as Address, to, value: '0.001' }).then(
          ({ transaction }) => ({ to, accepted: transaction.id, status: transaction.status }),
          (error: { code?: string }) => ({ to, refused: error.code }),
        ),
      ),
    ),
  )
  expect(answers.filter((answer) => answer === 'hung')).toEqual([])
  const given = answers.filter((answer) => answer !== 'hung')
  expect(given.filter((answer) => 'refused' in answer && answer.refused !== 'chain_unavailable')).toEqual([])
  expect(given.filter((answer) => 'status' in answer && answer.status === 'failed')).toEqual([])
  const accepted = given.flatMap((answer) => ('accepted' in answer ? [answer] : []))
  expect(accepted.length).toBeGreaterThan(4)

  const started = Date.now()
  const records = await Promise.all(accepted.map(({ accepted: id }) => settled(id, started + 30_000)))
  expect(records.filter((record) => record.status !== 'confirmed').map(({ status }) => status)).toEqual([])
  proxy.setPlan([])
  // Paid once each: every accepted recipient holds one send's value, every refused one nothing.
  for (const answer of given) {
    const balance = await devnet.provider.request({ method: 'eth_getBalance', params: [answer.to, 'latest'] })
    expect(BigInt(balance)).toBe('accepted' in answer ? parseEther('0.001') : 0n)
  }
})
