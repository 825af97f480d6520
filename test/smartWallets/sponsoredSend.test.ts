import {
  type AgentWallet,
  type AuditLine,
  auditLines,
  maxGasCostOf,
  type Principal,
  relayerAccount,
  type TransactionRecord,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, encodeFunctionData, type PublicClient, parseEther } from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// A tenant's smart wallets' sends sponsored by its verifying paymaster (docs/smart-accounts.md,
// "Sponsored gas"): the paymaster's deposit pays while the `sponsor_gas` cap leaves room, then the wallet.

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
let entryPoint: Address
let paymaster: Address | undefined
let sponsorKey: Address
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  paymaster: () => (paymaster ? { address: paymaster, signer: sponsorKey } : undefined),
})

const agent: Principal = { tenantId: 'default', id: 'agent-sponsored', role: 'agent' }

beforeAll(async () => {
  client = publicClientOf(devnet)
  entryPoint = devnet.addressBook.accountAbstraction!.entryPoint
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
  // The sponsor key is a key of the service's vault: the paymaster's verifyingSigner.
  sponsorKey = await aw.context.vault.createKey()
  paymaster = await devnet.deployVerifyingPaymaster({ signer: sponsorKey, deposit: parseEther('1') })
})

const depositOf = (address: Address) =>
  client.readContract({
    address: entryPoint,
    abi: entryPoint08Abi,
    functionName: 'balanceOf',
    args: [address],
  })

/** An agent's wallet with `rules`, upgraded in place (so deployed: its first op needs no deployment). */
async function upgradedWallet(agentName: string, rules: unknown[]) {
  const { wallet } = await aw.as(agent).createWallet({ agentName })
  await devnet.faucet(wallet.address, parseEther('5'))
  await aw.updatePolicyRules({ wallet: wallet.address, rules: rules as never })
  return (await aw.upgradeWallet({ wallet: wallet.address })).wallet
}

async function stored(id: string): Promise<TransactionRecord> {
  const record = await aw.context.storage.get('transactions', id)
  if (!record) throw new Error(`no transaction ${id}`)
  return record
}

/** The worst case of the stored op (what the cap counts), and whether the paymaster pays it. */
async function opOf(id: string) {
  const op = (await stored(id)).userOperation!.op as Record<string, string | undefined>
  const big = (name: string) => BigInt(op[name] ?? 0)
  const maxCost = maxGasCostOf({
    callGasLimit: big('callGasLimit'),
    verificationGasLimit: big('verificationGasLimit'),
    preVerificationGas: big('preVerificationGas'),
    paymasterVerificationGasLimit: big('paymasterVerificationGasLimit'),
    paymasterPostOpGasLimit: big('paymasterPostOpGasLimit'),
    maxFeePerGas: big('maxFeePerGas'),
  })
  return { maxCost, sponsored: op.paymaster?.toLowerCase() === paymaster!.toLowerCase() }
}

async function trail(): Promise<AuditLine[]> {
  const lines: AuditLine[] = []
  for await (const line of auditLines(aw.context.storage, 'default')) lines.push(line)
  return lines
}

describe('sponsored gas on a smart wallet’s sends', () => {
  it('a sponsored send leaves the wallet’s ETH untouched but for the value, and the paymaster’s deposit pays', async () => {
    const wallet = await upgradedWallet('sponsored', [{ type: 'sponsor_gas', max: '1', over: 'wallet' }])
    const [balance, deposit] = [
      await client.getBalance({ address: wallet.address }),
      await depositOf(paymaster!),
    ]
    const recipient = freshAddress()

    const sent = await aw.as(agent).send({ wallet: wallet.address, to: recipient, value: '0.25' })
    const done = await aw.as(agent).waitForTransaction({ transaction: sent.transaction.id })

    expect(done.transaction.status).toBe('confirmed')
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.25'))
    expect(await client.getBalance({ address: wallet.address })).toBe(balance - parseEther('0.25'))
    // The session account was never funded: the paymaster paid the op.
    expect(await depositOf(wallet.smart!.sessionKey)).toBe(0n)
    const record = await stored(sent.transaction.id)
    expect((await opOf(sent.transaction.id)).sponsored).toBe(true)
    const events = await client.getContractEvents({
      address: entryPoint,
      abi: entryPoint08Abi,
      eventName: 'UserOperationEvent',
      args: { userOpHash: record.userOperation!.hash },
      fromBlock: 0n,
    })
    expect(events).toHaveLength(1)
    expect(events[0]!.args.paymaster).toBe(paymaster)
    expect(await depositOf(paymaster!)).toBe(deposit - events[0]!.args.actualGasCost!)
    // The sponsor key's signature is in the trail, before the op it commits the deposit to.
    const sponsorships = (await trail()).filter(
      (line) => line.subjects.transactionId === sent.transaction.id && line.subjects.keyId === sponsorKey,
    )
    expect(sponsorships.map((line) => line.payload)).toMatchObject([
      { signed: 'sponsorship', paymaster, sender: wallet.smart!.sessionKey },
    ])
  })

  it('past the cap the wallet pays its own gas, and the paymaster nothing', async () => {
    const wallet = await upgradedWallet('over-cap', [
      { type: 'sponsor_gas', max: '0.000000001', over: 'wallet' },
    ])
    const [balance, deposit] = [
      await client.getBalance({ address: wallet.address }),
      await depositOf(paymaster!),
    ]

    const sent = await aw.as(agent).send({ wallet: wallet.address, to: freshAddress(), value: '0.25' })
    const done = await aw.as(agent).waitForTransaction({ transaction: sent.transaction.id })

    expect(done.transaction.status).toBe('confirmed')
    expect((await opOf(sent.transaction.id)).sponsored).toBe(false)
    expect(await depositOf(paymaster!)).toBe(deposit)
    // The wallet paid: the value, and the session account's gas deposit its owner op topped up.
    expect(await client.getBalance({ address: wallet.address })).toBeLessThan(balance - parseEther('0.25'))
    expect(await depositOf(wallet.smart!.sessionKey)).toBeGreaterThan(0n)
  })

  it('holds the cap under concurrent sends: sponsored ops signed but not yet included count against it', async () => {
    const probe = await upgradedWallet('cap-probe', [{ type: 'sponsor_gas', max: '1', over: 'wallet' }])
    const first = await aw.as(agent).send({ wallet: probe.address, to: freshAddress(), value: '0.01' })
    await aw.as(agent).waitForTransaction({ transaction: first.transaction.id })
    // What one sponsored op may cost at most now; fees only fall on an idle devnet.
    const { maxCost: one } = await opOf(first.transaction.id)
    const cap = one * 2n
    const wallet = await upgradedWallet('cap-concurrent', [
      { type: 'sponsor_gas', max: (Number(cap) / 1e18).toFixed(18), over: 'wallet' },
    ])
    // The session account's gas deposit is filled beforehand, so the sends the paymaster does not take
    // are paid from it without an owner op of their own (concurrent top-ups are not what this shows).
    const { wallet: funder } = await aw.createWallet({ agentName: 'deposit-funder' })
    await devnet.faucet(funder.address, parseEther('2'))
    const data = encodeFunctionData({
      abi: entryPoint08Abi,
      functionName: 'depositTo',
      args: [wallet.smart!.sessionKey],
    })
    const funded = await aw.send({ wallet: funder.address, to: entryPoint, value: '1', data })
    await aw.waitForTransaction({ transaction: funded.transaction.id })
    const deposit = await depositOf(paymaster!)

    // Nothing is mined while they are decided: none of them is in the chain's logs yet.
    await devnet.provider.request({ method: 'evm_setAutomine', params: [false] })
    let sent: Awaited<ReturnType<AgentWallet['send']>>[]
    try {
      sent = await Promise.all(
        Array.from({ length: 6 }, () =>
          aw.as(agent).send({ wallet: wallet.address, to: freshAddress(), value: '0.01' }),
        ),
      )
    } finally {
      await devnet.provider.request({ method: 'evm_setAutomine', params: [true] })
      await devnet.mine()
    }
    for (const answer of sent) {
      const done = await aw.as(agent).waitForTransaction({ transaction: answer.transaction.id })
      expect(done.transaction.status, JSON.stringify((await stored(answer.transaction.id)).error)).toBe(
        'confirmed',
      )
    }

    const ops = await Promise.all(sent.map((answer) => opOf(answer.transaction.id)))
    const sponsored = ops.filter((op) => op.sponsored)
    const worstCase = sponsored.reduce((sum, op) => sum + op.maxCost, 0n)
    expect(worstCase).toBeLessThanOrEqual(cap)
    expect(sponsored.length).toBeGreaterThanOrEqual(1)
    expect(sponsored.length).toBeLessThan(ops.length)
    expect(deposit - (await depositOf(paymaster!))).toBeLessThanOrEqual(cap)
  })
})
