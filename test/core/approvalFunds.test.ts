import { type AgentWallet, type DomainEvent, memoryStorage } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, erc20Abi, parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  approvalOf,
  approver,
  eventsOf,
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
// Our own storage, to read the stored records (the API view never shows raw signed bytes).
const storage = memoryStorage()

useDevnetAgentWallet((started) => ({ devnet, aw } = started), { storage })

const usdc = () => devnet.addressBook.tokens!.find((token) => token.decimals === 6)!.address

const aboutTransaction = (events: DomainEvent[], id: string) =>
  events.filter((event) => (event.data as { transactionId?: string }).transactionId === id)

/** The wallet's transactions as signed on chain, counting the node's pending pool. */
const nonceOnChain = (address: Address) =>
  publicClientOf(devnet).getTransactionCount({ address, blockTag: 'pending' })

async function pendingApprovalsOf(walletId: string) {
  const { approvals } = await aw.as(approver).listApprovals({ status: 'pending', limit: 200 })
  return approvals.filter((approval) => approval.walletId === walletId)
}

describe('funds of an intent that pauses for approval', () => {
  it('refuses a pausing send above the balance: insufficient_funds, no approval, nothing reserved', async () => {
    const hitl = eventsOf(aw, 'policy.hitl')
    const wallet = await fundedWallet(aw, devnet, '0.4')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', asset: 'native', above: '0.5' }],
    })
    await expect(aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.9' })).rejects.toMatchObject(
      {
        code: 'insufficient_funds',
      },
    )
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(0)
    expect(await pendingApprovalsOf(wallet.id)).toEqual([])
    expect(hitl.filter((event) => (event.data as { walletId: string }).walletId === wallet.id)).toEqual([])
  })

  it('counts the token balance of a pausing ERC-20 send', async () => {
    const wallet = await fundedWallet(aw, devnet, '1')
    await devnet.mintToken(usdc(), wallet.address, parseUnits('40', 6))
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', asset: usdc(), always: true }],
    })
    await expect(
      aw.send({ wallet: wallet.address, to: freshAddress(), value: '40.000001', token: usdc() }),
    ).rejects.toMatchObject({ code: 'insufficient_funds', details: { token: usdc() } })
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(0)
    expect(await pendingApprovalsOf(wallet.id)).toEqual([])
    // What it holds still pauses.
    const paused = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '40', token: usdc() })
    expect(paused.status).toBe('pending_approval')
  })
})

describe('funds of an approved intent, checked again when it executes', () => {
  it('two paused sends that each fit alone: the second approved fails unsigned and releases its spend', async () => {
    const failedEvents = eventsOf(aw, 'tx.failed')
    const resolvedEvents = eventsOf(aw, 'approval.resolved')
    const wallet = await fundedWallet(aw, devnet, '1')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [
        { type: 'require_approval', asset: 'native', above: '0.5' },
        { type: 'spend_limit', asset: 'native', max: '1.5', window: '24h' },
      ],
    })
    const first = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.6' })
    const to = freshAddress()
    const second = await aw.send({ wallet: wallet.address, to, value: '0.6' })
    expect([first.status, second.status]).toEqual(['pending_approval', 'pending_approval'])

    const human = aw.as(approver)
    const done = await human.approve({ approvalId: approvalOf(first).id })
    expect((await aw.waitForTransaction({ transaction: done.transaction.id })).status).toBe('confirmed')
    // 0.6 spent + 0.6 reserved + 0.35 > 1.5: the second intent still holds its reservation.
    await expect(
      aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.35' }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleType: 'spend_limit' },
    })
    const nonceBefore = await nonceOnChain(wallet.address)

    // About 0.4 ETH is left for a 0.6 ETH send.
    await expect(human.approve({ approvalId: approvalOf(second).id })).rejects.toMatchObject({
      code: 'insufficient_funds',
      details: { transactionId: second.transaction.id, approvalId: approvalOf(second).id },
    })
    const { transaction: failed } = await aw.getTransaction({ transaction: second.transaction.id })
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'insufficient_funds' },
      hash: null,
      nonce: null,
    })
    const stored = await storage.get('transactions', second.transaction.id)
    expect(stored?.rawTx).toBeUndefined()
    expect(await nonceOnChain(wallet.address)).toBe(nonceBefore)
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(0n)
    expect((await aw.getApproval({ approvalId: approvalOf(second).id })).approval.status).toBe('approved')
    await expect
      .poll(() => aboutTransaction(failedEvents, second.transaction.id).length, {
        message: 'tx.failed for the second intent',
      })
      .toBe(1)
    await expect
      .poll(
        () =>
          resolvedEvents.filter(
            (event) => (event.data as { approvalId: string }).approvalId === approvalOf(second).id,
          ).length,
        { message: 'approval.resolved for the second intent' },
      )
      .toBe(1)
    await expect(human.approve({ approvalId: approvalOf(second).id })).rejects.toMatchObject({
      code: 'approval_not_pending',
    })

    // Released: 0.6 spent + 0.35 fits the limit now, and the wallet can pay it.
    expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.35' })).status).toBe(
      'submitted',
    )
  })

  it('fails an approved ERC-20 send whose tokens left while it waited', async () => {
    const wallet = await fundedWallet(aw, devnet, '1')
    await devnet.mintToken(usdc(), wallet.address, parseUnits('100', 6))
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', asset: usdc(), above: '50' }],
    })
    const to = freshAddress()
    const paused = await aw.send({ wallet: wallet.address, to, value: '60', token: usdc() })
    expect(paused.status).toBe('pending_approval')
    const drained = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '50', token: usdc() })
    expect((await aw.waitForTransaction({ transaction: drained.transaction.id })).status).toBe('confirmed')
    const nonceBefore = await nonceOnChain(wallet.address)

    await expect(aw.as(approver).approve({ approvalId: approvalOf(paused).id })).rejects.toMatchObject({
      code: 'insufficient_funds',
      details: { token: usdc(), transactionId: paused.transaction.id },
    })
    expect((await aw.getTransaction({ transaction: paused.transaction.id })).transaction).toMatchObject({
      status: 'failed',
      error: { code: 'insufficient_funds' },
      hash: null,
    })
    expect(await nonceOnChain(wallet.address)).toBe(nonceBefore)
    const received = await publicClientOf(devnet).readContract({
      address: usdc(),
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [to],
    })
    expect(received).toBe(0n)
    // The ether for gas was there all along: only the token was short.
    expect(await publicClientOf(devnet).getBalance({ address: wallet.address })).toBeGreaterThan(
      parseEther('0.9'),
    )
  })
})

describe('whether a paused intent is still covered, before anyone decides', () => {
  it('answers covered while the wallet can pay value + gas, and not once the money left', async () => {
    const wallet = await fundedWallet(aw, devnet, '1')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', asset: 'native', above: '0.5' }],
    })
    const paused = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.6' })
    const approvalId = approvalOf(paused).id
    const human = aw.as(approver)
    const before = await human.checkApprovalFunds({ approvalId })
    expect(before).toMatchObject({
      approvalId,
      transactionId: paused.transaction.id,
      covered: true,
      native: { gasIncluded: true },
    })
    expect(before.native.balance).toBe('1')
    // 0.6 plus a gas budget.
    expect(Number(before.native.required)).toBeGreaterThan(0.6)
    expect(before.token).toBeUndefined()

    await devnet.provider.request({
      method: 'hardhat_setBalance',
      params: [wallet.address, `0x${parseEther('0.6').toString(16)}`],
    })
    const after = await human.checkApprovalFunds({ approvalId })
    expect(after).toMatchObject({ covered: false, native: { balance: '0.6', gasIncluded: true } })
    expect(Number(after.native.required)).toBeGreaterThan(0.6)
    // Nothing was decided.
    expect((await human.getApproval({ approvalId })).approval.status).toBe('pending')
    await expect(
      aw.as({ tenantId: 'default', id: 'some-agent', role: 'agent' }).checkApprovalFunds({ approvalId }),
    ).rejects.toMatchObject({ code: 'forbidden' })
  })

  it('counts the token an intent pays', async () => {
    const wallet = await fundedWallet(aw, devnet, '1')
    await devnet.mintToken(usdc(), wallet.address, parseUnits('40', 6))
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', asset: usdc(), always: true }],
    })
    const paused = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '30', token: usdc() })
    const approvalId = approvalOf(paused).id
    expect(await aw.as(approver).checkApprovalFunds({ approvalId })).toMatchObject({
      covered: true,
      token: { symbol: 'USDC', balance: '40', required: '30' },
    })
    // Another send of the token, approved by nobody: it goes out, and 30 is no longer there.
    await aw.updatePolicyRules({ wallet: wallet.address, rules: [] })
    const spent = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '20', token: usdc() })
    await aw.waitForTransaction({ transaction: spent.transaction.id })
    expect(await aw.as(approver).checkApprovalFunds({ approvalId })).toMatchObject({
      covered: false,
      token: { balance: '20', required: '30' },
    })
  })
})
