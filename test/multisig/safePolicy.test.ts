import type { AgentWallet } from '@agentwallet/core'
import { type Devnet, safeAbi } from '@agentwallet/devnet'
import { type Address, encodeFunctionData, erc20Abi, type Hex, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

let owner1: Address
let owner2: Address
let safe: Address
let usdc: Address
const usd = (amount: string) => parseUnits(amount, 6)

beforeAll(async () => {
  owner1 = (await fundedWallet(aw, devnet, '10', 'owner-1')).address
  owner2 = (await fundedWallet(aw, devnet, '10', 'owner-2')).address
  const outsider = privateKeyToAccount(generatePrivateKey()).address
  const deployed = await aw.deploySafe({ owners: [owner1, owner2, outsider], threshold: 2, wallet: owner1 })
  if (deployed.status !== 'deployed') throw new Error('expected the Safe to be deployed')
  safe = deployed.address
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  await devnet.mintToken(usdc, safe, usd('1000'))
  await devnet.faucet(safe, parseEther('2'))
})

const erc20 = (functionName: 'transfer' | 'approve', to: Address, amount: bigint): Hex =>
  encodeFunctionData({ abi: erc20Abi, functionName, args: [to, amount] })

async function usdcBalance(address: Address): Promise<bigint> {
  return publicClientOf(devnet).readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  })
}

async function safeNonce(): Promise<bigint> {
  return publicClientOf(devnet).readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })
}

/** Proposes a SafeTx from `proposer` (one signature of two) and returns its hash. */
async function propose(proposer: Address, to: Address, data: Hex = '0x', value = '0'): Promise<Hex> {
  const proposed = await aw.proposeSafeTransaction({ safe, wallet: proposer, to, value, data })
  expect(proposed.status).toBe('pending')
  return proposed.proposal.safeTxHash as Hex
}

/** The policy error a second confirmation (which executes) is refused with. */
async function refusal(
  hash: Hex,
  executor: Address,
): Promise<{ code: string; details: Record<string, unknown> }> {
  const error = await aw.confirmSafeTransaction({ safe, safeTxHash: hash, wallet: executor }).then(
    () => undefined,
    (thrown: unknown) => thrown as { code: string; details: Record<string, unknown> },
  )
  expect(error).toBeDefined()
  return error!
}

describe('Safe executions are judged as what the Safe pays', () => {
  it("counts a USDC transfer against the executing wallet's USDC spend limit, not the proposer's", async () => {
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [{ id: 'usdc-24h', type: 'spend_limit', asset: 'USDC', max: '100', window: '24h' }],
    })
    // The proposer's own tiny limit does not matter when owner2 executes.
    await aw.updatePolicyRules({
      wallet: owner1,
      rules: [{ id: 'owner1-usdc', type: 'spend_limit', asset: usdc, max: '1', window: '24h' }],
    })
    const recipient = freshAddress()
    const nonce = await safeNonce()

    const tooMuch = await propose(owner1, usdc, erc20('transfer', recipient, usd('150')))
    const blocked = await refusal(tooMuch, owner2)
    expect(blocked).toMatchObject({
      code: 'policy_blocked',
      details: {
        ruleId: 'usdc-24h',
        ruleType: 'spend_limit',
        symbol: 'USDC',
        requested: '150',
        limit: '100',
        spent: '0',
      },
    })
    // The blocked intent is recorded as the Safe's payment: USDC to the real recipient, out of the Safe.
    const { transaction: record } = await aw.getTransaction({
      transaction: blocked.details.transactionId as string,
    })
    expect(record).toMatchObject({
      kind: 'multisig',
      status: 'blocked',
      from: owner2,
      to: recipient,
      via: safe,
      asset: { address: usdc, symbol: 'USDC', decimals: 6 },
      amountRaw: usd('150').toString(),
    })
    expect(await usdcBalance(recipient)).toBe(0n)
    expect(await safeNonce()).toBe(nonce)
    const pending = (await aw.getSafe({ safe })).safe.pendingProposals.find((p) => p.safeTxHash === tooMuch)
    expect(pending).toMatchObject({ status: 'pending', error: { code: 'policy_blocked' } })

    // 60 USDC fits: it executes and the recipient's token balance moves on chain.
    const safeBefore = await usdcBalance(safe)
    const fits = await propose(owner1, usdc, erc20('transfer', recipient, usd('60')))
    const executed = await aw.confirmSafeTransaction({ safe, safeTxHash: fits, wallet: owner2 })
    expect(executed.status).toBe('executed')
    expect(executed.transaction).toMatchObject({
      kind: 'multisig',
      status: 'confirmed',
      from: owner2,
      to: recipient,
      via: safe,
      asset: { address: usdc, symbol: 'USDC' },
      amountRaw: usd('60').toString(),
    })
    expect(await usdcBalance(recipient)).toBe(usd('60'))
    expect(await usdcBalance(safe)).toBe(safeBefore - usd('60'))
    expect(await safeNonce()).toBe(nonce + 1n)

    // The window now holds those 60: another 60 would make 120.
    const again = await propose(owner1, usdc, erc20('transfer', recipient, usd('60')))
    expect(await refusal(again, owner2)).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'usdc-24h', spent: '60', requested: '60', remaining: '40' },
    })
    // The same proposal, executed by owner1 instead, meets owner1's own limit.
    expect(await refusal(again, owner1)).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'owner1-usdc', ruleType: 'spend_limit', spent: '0', requested: '60' },
    })
    expect(await usdcBalance(recipient)).toBe(usd('60'))

    await aw.updatePolicyRules({ wallet: owner1, rules: [] })
    await aw.updatePolicyRules({ wallet: owner2, rules: [] })
  })

  it('checks the real recipient against allow_recipients, even when the Safe itself is listed', async () => {
    const recipient = freshAddress()
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [{ id: 'only-safe', type: 'allow_recipients', addresses: [safe] }],
    })

    const tokenPayment = await propose(owner1, usdc, erc20('transfer', recipient, usd('5')))
    expect(await refusal(tokenPayment, owner2)).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'only-safe', ruleType: 'allow_recipients', recipient },
    })
    // A plain value transfer is a payment to its `to` as well.
    const ethPayment = await propose(owner1, recipient, '0x', '0.1')
    expect(await refusal(ethPayment, owner2)).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'only-safe', recipient },
    })
    expect(await usdcBalance(recipient)).toBe(0n)
    expect(await publicClientOf(devnet).getBalance({ address: recipient })).toBe(0n)

    // Listing the recipient lets the same, already signed proposal through on a retry.
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [{ id: 'recipient', type: 'allow_recipients', addresses: [recipient] }],
    })
    const executed = await aw.confirmSafeTransaction({ safe, safeTxHash: tokenPayment, wallet: owner2 })
    expect(executed.status).toBe('executed')
    expect(await usdcBalance(recipient)).toBe(usd('5'))

    // A call that moves nothing (a token read) is a contract call to the Safe: recipient lists do not apply.
    await aw.updatePolicyRules({ wallet: owner2, rules: [{ type: 'allow_recipients', addresses: [] }] })
    const read = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [safe] })
    const call = await aw.confirmSafeTransaction({
      safe,
      safeTxHash: await propose(owner1, usdc, read),
      wallet: owner2,
    })
    expect(call.status).toBe('executed')
    expect(call.transaction).toMatchObject({ to: safe, asset: { address: 'native' }, amount: '0' })
    expect(call.transaction?.via).toBeUndefined()

    await aw.updatePolicyRules({ wallet: owner2, rules: [] })
  })

  it('counts an approve as an outflow of its amount to its spender, and keeps allow_contracts on the Safe', async () => {
    const spender = freshAddress()
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [
        { id: 'no-spender', type: 'deny_recipients', addresses: [spender] },
        { id: 'usdc-cap', type: 'max_per_tx', asset: 'USDC', max: '500' },
      ],
    })
    const approval = await propose(owner1, usdc, erc20('approve', spender, usd('500')))
    expect(await refusal(approval, owner2)).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'no-spender', ruleType: 'deny_recipients', recipient: spender, via: safe },
    })
    // The spender may take 500 USDC from the Safe once granted: a cap below that refuses the grant.
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [{ id: 'usdc-cap', type: 'max_per_tx', asset: 'USDC', max: '499.99' }],
    })
    expect(await refusal(approval, owner2)).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'usdc-cap', ruleType: 'max_per_tx', requested: '500' },
    })

    // Within the cap, the approve must still call a listed contract: the Safe, whose execTransaction
    // is what the wallet sends.
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [
        { id: 'usdc-cap', type: 'max_per_tx', asset: 'USDC', max: '500' },
        { id: 'contracts', type: 'allow_contracts', contracts: [{ address: usdc }] },
      ],
    })
    expect(await refusal(approval, owner2)).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'contracts', ruleType: 'allow_contracts', contract: safe },
    })
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [
        { id: 'usdc-cap', type: 'max_per_tx', asset: 'USDC', max: '500' },
        { id: 'contracts', type: 'allow_contracts', contracts: [{ address: safe }] },
      ],
    })
    const executed = await aw.confirmSafeTransaction({ safe, safeTxHash: approval, wallet: owner2 })
    expect(executed.status).toBe('executed')
    expect(executed.transaction).toMatchObject({ to: spender, via: safe, amount: '0' })
    const allowance = await publicClientOf(devnet).readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [safe, spender],
    })
    expect(allowance).toBe(usd('500'))

    await aw.updatePolicyRules({ wallet: owner2, rules: [] })
  })

  it("re-checks the Safe's payment, not the Safe, when a paused execution is approved", async () => {
    const recipient = freshAddress()
    const pause = { id: 'usdc-approval', type: 'require_approval', asset: 'USDC', above: '10' }
    await aw.updatePolicyRules({ wallet: owner2, rules: [pause] })
    const hash = await propose(owner1, usdc, erc20('transfer', recipient, usd('20')))
    const paused = await aw.confirmSafeTransaction({ safe, safeTxHash: hash, wallet: owner2 })
    expect(paused).toMatchObject({
      status: 'executing',
      transaction: { status: 'pending_approval', to: recipient, via: safe },
      approval: { ruleId: 'usdc-approval' },
    })
    expect((await aw.getApproval({ approvalId: paused.approval!.id })).approval.status).toBe('pending')

    // Meanwhile only the Safe becomes an allowed recipient: the approver's re-check still sees the recipient.
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [pause, { id: 'only-safe', type: 'allow_recipients', addresses: [safe] }],
    })
    const human = aw.as({ tenantId: 'default', id: 'human', role: 'approver' })
    await expect(human.approve({ approvalId: paused.approval!.id })).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'only-safe', recipient },
    })
    expect(await usdcBalance(recipient)).toBe(0n)
    await aw.updatePolicyRules({ wallet: owner2, rules: [] })
  })

  it('counts a transferFrom out of the Safe as a USDC payment to its recipient', async () => {
    const recipient = freshAddress()
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [{ id: 'usdc-cap', type: 'max_per_tx', asset: usdc, max: '10' }],
    })
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transferFrom',
      args: [safe, recipient, usd('11')],
    })
    expect(await refusal(await propose(owner1, usdc, data), owner2)).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'usdc-cap', ruleType: 'max_per_tx', requested: '11', limit: '10' },
    })
    expect(await usdcBalance(recipient)).toBe(0n)
    await aw.updatePolicyRules({ wallet: owner2, rules: [] })
  })
})
