import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  publicClientOf,
  storedTransaction,
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
      Array.from({ length: 50 }, () => aw.send({ wallet: wallet.address, to, value: '0.1' })),
    )
    const accepted = results.filter((result) => result.status === 'fulfilled')
    const rejected = results.filter((result) => result.status === 'rejected')
    expect(accepted).toHaveLength(10)
    expect(rejected).toHaveLength(40)
    for (const result of rejected) expect(result.reason).toMatchObject({ code: 'policy_blocked' })

    await Promise.all(
      accepted.map((result) => aw.waitForTransaction({ transaction: result.value.transaction.id })),
    )
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('1'))
  })

  it('accepts exactly what fits of 50 concurrent sends in ETH, USDC and DAI against one USD limit', async () => {
    const wallet = await fundedWallet(aw, devnet, '10')
    const tokens = devnet.addressBook.tokens
    const usdc = tokens.find((token) => token.symbol === 'USDC')!.address
    const dai = tokens.find((token) => token.symbol === 'DAI')!.address
    await devnet.mintToken(usdc, wallet.address, parseUnits('100', 6))
    await devnet.mintToken(dai, wallet.address, parseUnits('100', 18))
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'spend_limit', asset: 'usd', max: '90', window: '24h' }],
    })
    // Each is worth exactly 3 USD (ETH at 3000, USDC and DAI at 1): 30 of them fit in 90 USD.
    const sends = [{ value: '0.001' }, { value: '3', token: usdc }, { value: '3', token: dai }] as const
    const to = freshAddress()
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) => aw.send({ wallet: wallet.address, to, ...sends[index % 3]! })),
    )
    const accepted = results.filter((result) => result.status === 'fulfilled')
    const rejected = results.filter((result) => result.status === 'rejected')
    expect(accepted).toHaveLength(30)
    expect(rejected).toHaveLength(20)
    for (const result of rejected) expect(result.reason).toMatchObject({ code: 'policy_blocked' })
    const stored = await Promise.all(
      accepted.map((result) => storedTransaction(aw, result.value.transaction.id)),
    )
    expect(stored.every((record) => record.usd?.value === '3')).toBe(true)
    expect(new Set(stored.map((record) => record.asset.symbol))).toEqual(new Set(['ETH', 'USDC', 'DAI']))
  })

  it('confirms 200 concurrent sends from one wallet with contiguous nonces', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '100')
    const to = freshAddress()
    const sends = await Promise.all(
      Array.from({ length: 200 }, () => aw.send({ wallet: wallet.address, to, value: '0.001' })),
    )
    const done = await Promise.all(
      sends.map(({ transaction }) => aw.waitForTransaction({ transaction: transaction.id })),
    )
    expect(done.every((answer) => answer.status === 'confirmed')).toBe(true)
    const nonces = done.map((answer) => answer.transaction.nonce!).sort((a, b) => a - b)
    expect(nonces).toEqual(Array.from({ length: 200 }, (_, index) => index))
    // The chain agrees: every hash mined with the nonce we recorded, and no other tx from the wallet.
    const mined = await Promise.all(done.map((answer) => client.getTransaction({ hash: answer.hash! })))
    expect(mined.map((tx) => tx.nonce).sort((a, b) => a - b)).toEqual(nonces)
    expect(await client.getTransactionCount({ address: wallet.address })).toBe(200)
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.2'))
  })
})
