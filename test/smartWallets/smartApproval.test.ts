import { type AgentWallet, relayerAccount } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  approvalOf,
  freshAddress,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

// A smart wallet's paused intent, once approved, goes out as its user operation — not as an x402
// payment settled by a payee (both have no gas of their own; only the payment is settled off chain).

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
})

describe('a smart wallet’s send paused for approval', () => {
  it('is carried by its user operation once approved, exactly once', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'smart-approved', kind: 'smart' })
    await devnet.faucet(wallet.address, parseEther('1'))
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', always: true }],
    })
    const recipient = freshAddress()
    const paused = await aw.send({ wallet: wallet.address, to: recipient, value: '0.1' })
    const human = aw.as({ tenantId: 'default', id: 'human', role: 'approver' })

    const { transaction } = await human.approve({ approvalId: approvalOf(paused).id })
    expect(transaction.id).toBe(paused.transaction.id)
    const done = await aw.waitForTransaction({ transaction: transaction.id })
    expect(done.transaction.status).toBe('confirmed')
    expect(await publicClientOf(devnet).getBalance({ address: recipient })).toBe(parseEther('0.1'))
    const stored = await aw.context.storage.get('transactions', transaction.id)
    expect(stored?.userOperation?.sender).toBe(wallet.smart?.sessionKey)
    await expect(human.approve({ approvalId: approvalOf(paused).id })).rejects.toMatchObject({
      code: 'approval_not_pending',
    })
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(1)
  })
})
