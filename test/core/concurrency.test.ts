import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

useDevnetAgentWallet((started) => ({ devnet, aw } = started))

describe('concurrency', () => {
  it('accepts exactly limit / amount of 50 concurrent sends against a spend limit', async () => {
    const wallet = await fundedWallet(aw, devnet, '10')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'spend_limit', asset: 'native', max: '1', window: '24h' }],
    })
    const to = freshAddress()
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => aw.send(wallet.address, { to, value: '0.1' })),
    )
    const accepted = results.filter((result) => result.status === 'fulfilled')
    const rejected = results.filter((result) => result.status === 'rejected')
    expect(accepted).toHaveLength(10)
    expect(rejected).toHaveLength(40)
    for (const result of rejected) expect(result.reason).toMatchObject({ code: 'policy_blocked' })

    await Promise.all(accepted.map((result) => aw.waitForTransaction(result.value.transaction.id)))
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('1'))
  })

  it('confirms 200 concurrent sends from one wallet with contiguous nonces', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '100')
    const to = freshAddress()
    const sends = await Promise.all(
      Array.from({ length: 200 }, () => aw.send(wallet.address, { to, value: '0.001' })),
    )
    const done = await Promise.all(sends.map(({ transaction }) => aw.waitForTransaction(transaction.id)))
    expect(done.every((record) => record.status === 'confirmed')).toBe(true)
    const nonces = done.map((record) => record.nonce!).sort((a, b) => a - b)
    expect(nonces).toEqual(Array.from({ length: 200 }, (_, index) => index))
    // The chain agrees: every hash mined with the nonce we recorded, and no other tx from the wallet.
    const mined = await Promise.all(done.map((record) => client.getTransaction({ hash: record.hash! })))
    expect(mined.map((tx) => tx.nonce).sort((a, b) => a - b)).toEqual(nonces)
    expect(await client.getTransactionCount({ address: wallet.address })).toBe(200)
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.2'))
  })
})
