import { type AgentWallet, relayerAccount } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type PublicClient, parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// Issue #37, item 3: no session grant is issued uncapped.

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  client = publicClientOf(devnet)
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
})

describe('a grant issued while the wallet has no rules', () => {
  it('is capped on chain all the same: the native coin by the default rules’ figures', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'grants-no-rules', kind: 'smart' })
    expect(await aw.getPolicyRules({ wallet: wallet.address })).toEqual({
      tenant: [],
      wallet: { address: wallet.address, rules: [] },
    })
    expect(wallet.smart!.nativeFromDefaults).toBe(true)
    expect(wallet.smart!.permissions.native).toEqual({
      perCall: parseEther('1').toString(),
      allowance: { amount: parseEther('5').toString(), period: 86_400 },
    })

    // The chain holds it: a send over the cap, which no rule of the service stops, moves nothing.
    await devnet.faucet(wallet.address, parseEther('3'))
    const recipient = freshAddress()
    const under = await aw.send({ wallet: wallet.address, to: recipient, value: '0.5' })
    expect((await aw.waitForTransaction({ transaction: under.transaction.id })).transaction.status).toBe(
      'confirmed',
    )
    const over = await aw.send({ wallet: wallet.address, to: recipient, value: '1.5' })
    const settled = await aw.waitForTransaction({ transaction: over.transaction.id })
    // Judged by no rule (allowed), then refused by the on-chain cap before any carrier was sent.
    expect(settled.transaction).toMatchObject({
      status: 'failed',
      hash: null,
      policy: { decision: 'allow' },
      error: { code: 'transaction_failed' },
    })
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.5'))
  })
})
