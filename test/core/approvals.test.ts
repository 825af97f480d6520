import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'
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
let clock = Date.now()

useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  now: () => new Date(clock),
  approvalTtlMs: 60_000,
})

/** A wallet whose sends above 0.5 ETH wait for a human, with a 1 ETH daily limit. */
async function walletNeedingApproval() {
  const wallet = await fundedWallet(aw, devnet, '10')
  await aw.updatePolicyRules({
    wallet: wallet.address,
    rules: [
      { type: 'require_approval', asset: 'native', above: '0.5' },
      { type: 'spend_limit', asset: 'native', max: '1', window: '24h' },
    ],
  })
  return wallet
}

describe('human approval', () => {
  it('pauses, then approve executes exactly that intent once', async () => {
    const hitl = eventsOf(aw, 'policy.hitl')
    const resolved = eventsOf(aw, 'approval.resolved')
    const wallet = await walletNeedingApproval()
    const to = freshAddress()

    const paused = await aw.send({ wallet: wallet.address, to, value: '0.8' })
    expect(paused.status).toBe('pending_approval')
    expect(paused.transaction.hash).toBeNull()
    const approval = approvalOf(paused)
    expect((await aw.getApproval({ approvalId: approval.id })).approval.status).toBe('pending')
    await expect
      .poll(() => hitl.some((event) => (event.data as { approvalId: string }).approvalId === approval.id))
      .toBe(true)

    // The principal that asked (the local admin) cannot approve its own request.
    await expect(aw.approve({ approvalId: approval.id })).rejects.toMatchObject({ code: 'forbidden' })

    const human = aw.as(approver)
    const { transaction, approval: approved } = await human.approve({ approvalId: approval.id })
    expect(approved.status).toBe('approved')
    expect(transaction.id).toBe(paused.transaction.id)
    expect((await aw.waitForTransaction({ transaction: transaction.id })).status).toBe('confirmed')
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.8'))

    // Once only: a second approve is refused and nothing else moves.
    await expect(human.approve({ approvalId: approval.id })).rejects.toMatchObject({
      code: 'approval_not_pending',
    })
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.8'))
    await expect
      .poll(
        () =>
          resolved.filter((event) => (event.data as { approvalId: string }).approvalId === approval.id)
            .length,
      )
      .toBe(1)
  })

  it('reserves the paused amount against the spend limit, and reject releases it', async () => {
    const wallet = await walletNeedingApproval()
    const paused = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.8' })
    expect(paused.status).toBe('pending_approval')
    // 0.8 reserved + 0.3 > 1: blocked while the approval is pending.
    await expect(aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.3' })).rejects.toMatchObject(
      {
        code: 'policy_blocked',
        details: { ruleType: 'spend_limit' },
      },
    )
    const { approval, transaction } = await aw
      .as(approver)
      .reject({ approvalId: approvalOf(paused).id, reason: 'not today' })
    expect(approval.status).toBe('rejected')
    expect(transaction.status).toBe('rejected')
    // Released: the same 0.3 now goes through.
    const sent = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.3' })
    expect(sent.status).toBe('submitted')
  })

  it('expires after its window and releases the reservation', async () => {
    const wallet = await walletNeedingApproval()
    const paused = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.9' })
    clock += 61_000
    await aw.reconcile()
    const { approval } = await aw.getApproval({ approvalId: approvalOf(paused).id })
    expect(approval.status).toBe('expired')
    expect((await aw.getTransaction({ transaction: paused.transaction.id })).status).toBe('expired')
    await expect(aw.as(approver).approve({ approvalId: approval.id })).rejects.toMatchObject({
      code: 'approval_not_pending',
    })
    expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.4' })).status).toBe(
      'submitted',
    )
  })

  it('re-checks deny rules at approval time', async () => {
    const wallet = await walletNeedingApproval()
    const to = freshAddress()
    const paused = await aw.send({ wallet: wallet.address, to, value: '0.6' })
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [
        { type: 'require_approval', asset: 'native', above: '0.5' },
        { type: 'deny_recipients', addresses: [to] },
      ],
    })
    await expect(aw.as(approver).approve({ approvalId: approvalOf(paused).id })).rejects.toMatchObject({
      code: 'policy_blocked',
    })
    expect((await aw.getTransaction({ transaction: paused.transaction.id })).status).toBe('blocked')
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(0n)
  })

  it('lets only approvers and admins of the tenant resolve approvals', async () => {
    const wallet = await walletNeedingApproval()
    const paused = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.6' })
    const agent = aw.as({ tenantId: 'default', id: 'some-agent', role: 'agent' })
    await expect(agent.approve({ approvalId: approvalOf(paused).id })).rejects.toMatchObject({
      code: 'forbidden',
    })
    const stranger = aw.as({ tenantId: 'other', id: 'other-approver', role: 'approver' })
    await expect(stranger.approve({ approvalId: approvalOf(paused).id })).rejects.toMatchObject({
      code: 'not_found',
    })
    const pending = await aw.as(approver).listApprovals({ status: 'pending' })
    expect(pending.approvals.map((entry) => entry.id)).toContain(approvalOf(paused).id)
  })
})
