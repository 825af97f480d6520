import type { AgentWallet } from '@agentwallet/core'
import { allowanceDrainerAbi, type Devnet } from '@agentwallet/devnet'
import { type Address, encodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  approvalOf,
  approver,
  eventsOf,
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'
import { deployDevnetContract, fundedSigner } from '../helpers/effectsDevnet.js'

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

let usdc: Address
const usd = (amount: string) => parseUnits(amount, 6)
const transfer = (to: Address, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })

beforeAll(() => {
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
})

/** A funded wallet holding `tokens` USDC whose every send waits for a human. */
async function pausingWallet(tokens: string) {
  const wallet = await fundedWallet(aw, devnet, '10')
  await devnet.mintToken(usdc, wallet.address, usd(tokens))
  await aw.updatePolicyRules({ wallet: wallet.address, rules: [{ type: 'require_approval', always: true }] })
  return wallet
}

describe('approvers see what a paused transaction does', () => {
  it('shows a calldata token transfer as the USDC it moves, in the answer, the record and policy.hitl', async () => {
    const hitl = eventsOf(aw, 'policy.hitl')
    const wallet = await pausingWallet('10')
    const to = freshAddress()
    const paused = await aw.send({
      wallet: wallet.address,
      to: usdc,
      value: '0',
      data: transfer(to, usd('5')),
    })
    const summary = approvalOf(paused)
    const shown = {
      status: 'known',
      effects: [
        {
          kind: 'out',
          asset: expect.objectContaining({ standard: 'erc20', address: usdc, symbol: 'USDC' }),
          amount: usd('5').toString(),
          counterparty: to,
        },
      ],
    }
    expect(summary.effects).toMatchObject(shown)
    const { approval } = await aw.getApproval({ approvalId: summary.id })
    expect(approval.effects).toMatchObject(shown)
    expect(approval.effectsHash).toMatch(/^[0-9a-f]{64}$/)
    const hitlOf = () => hitl.map((event) => event.data as { approvalId?: string; effects?: unknown })
    await expect
      .poll(() => hitlOf().find((data) => data.approvalId === summary.id)?.effects)
      .toMatchObject(shown)
  })

  it('leads with what it does: approve(spender, 500 USDC) is “Allow spender to spend 500 USDC (≈ $500)” in the answer, the approval and policy.hitl', async () => {
    const hitl = eventsOf(aw, 'policy.hitl')
    const wallet = await fundedWallet(aw, devnet, '10')
    await devnet.mintToken(usdc, wallet.address, usd('1000'))
    // A dollar rule values the grant (USDC at its devnet feed) and pauses it.
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', asset: 'usd', above: '100' }],
    })
    const spender = freshAddress()
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, usd('500')] })
    const paused = await aw.send({ wallet: wallet.address, to: usdc, value: '0', data })
    const headline = `Allow ${spender} to spend 500 USDC (≈ $500)`
    const summary = approvalOf(paused)
    expect(summary.headline).toBe(headline)
    expect((await aw.getApproval({ approvalId: summary.id })).approval.headline).toBe(headline)
    const listed = await aw.listApprovals({ status: 'pending' })
    expect(listed.approvals.find((approval) => approval.id === summary.id)?.headline).toBe(headline)
    await expect
      .poll(
        () =>
          hitl
            .map((event) => event.data as { approvalId?: string; headline?: string })
            .find((event) => event.approvalId === summary.id)?.headline,
      )
      .toBe(headline)
  })

  it('flags an unlimited approve as unlimited', async () => {
    const wallet = await pausingWallet('10')
    const spender = freshAddress()
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [spender, 2n ** 256n - 1n],
    })
    const paused = await aw.send({ wallet: wallet.address, to: usdc, value: '0', data })
    expect(approvalOf(paused).effects).toMatchObject({
      status: 'known',
      effects: [{ kind: 'grant', unlimited: true, counterparty: spender }],
    })
  })

  it('does not send an approved call that would now move more, and asks again with what it would do', async () => {
    const wallet = await pausingWallet('10')
    const receiver = freshAddress()
    const deployer = await fundedSigner(devnet)
    const drainer = await deployDevnetContract(devnet, deployer, 'AllowanceDrainer', [usdc, receiver])
    // An allowance the wallet gave the contract earlier (through the service, rules off for it).
    await aw.updatePolicyRules({ wallet: wallet.address, rules: [] })
    const granted = await aw.send({
      wallet: wallet.address,
      to: usdc,
      value: '0',
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [drainer, usd('100')] }),
    })
    expect((await aw.waitForTransaction({ transaction: granted.transaction.id })).status).toBe('confirmed')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', always: true }],
    })

    // `claim()` pulls min(allowance, balance): 10 USDC when it pauses.
    const claim = encodeFunctionData({ abi: allowanceDrainerAbi, functionName: 'claim' })
    const paused = await aw.send({ wallet: wallet.address, to: drainer, value: '0', data: claim })
    const first = approvalOf(paused)
    expect(first.effects).toMatchObject({
      effects: [{ kind: 'out', amount: usd('10').toString(), counterparty: receiver }],
    })

    // Then the wallet receives 50 more: the same call would now take 60.
    await devnet.mintToken(usdc, wallet.address, usd('50'))
    const human = aw.as(approver)
    const refused = await human.approve({ approvalId: first.id }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: 'effects_changed' })
    const again = (refused as { details: { approvalId: string } }).details.approvalId
    expect((await aw.getApproval({ approvalId: first.id })).approval.status).toBe('rejected')
    const { approval: renewed } = await aw.getApproval({ approvalId: again })
    expect(renewed).toMatchObject({
      status: 'pending',
      transactionId: paused.transaction.id,
      effects: { effects: [{ kind: 'out', amount: usd('60').toString(), counterparty: receiver }] },
    })
    const token = { address: usdc, abi: erc20Abi, functionName: 'balanceOf' } as const
    const client = publicClientOf(devnet)
    expect(await client.readContract({ ...token, args: [receiver] })).toBe(0n)

    // Approving what it would do now sends it.
    const { transaction } = await human.approve({ approvalId: again })
    expect((await aw.waitForTransaction({ transaction: transaction.id })).status).toBe('confirmed')
    expect(await client.readContract({ ...token, args: [receiver] })).toBe(usd('60'))
  })

  it('sends an approved call whose effects are the approved ones', async () => {
    const wallet = await pausingWallet('10')
    const to = freshAddress()
    const paused = await aw.send({
      wallet: wallet.address,
      to: usdc,
      value: '0',
      data: transfer(to, usd('4')),
    })
    const { transaction } = await aw.as(approver).approve({ approvalId: approvalOf(paused).id })
    expect((await aw.waitForTransaction({ transaction: transaction.id })).status).toBe('confirmed')
  })
})
