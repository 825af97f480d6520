import { type AgentWallet, relayerAccount } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Hex, type PublicClient, parseAbi, parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// Issue #37, item 3: a grant the wallet no longer uses must not stay redeemable on chain, none is
// issued uncapped, and the wallet view lists every grant still live with its state.

const disabledDelegationsAbi = parseAbi(['function disabledDelegations(bytes32) view returns (bool)'])

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  client = publicClientOf(devnet)
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
})

const disabled = (hash: string) =>
  client.readContract({
    address: devnet.addressBook.accountAbstraction!.delegationManager,
    abi: disabledDelegationsAbi,
    functionName: 'disabledDelegations',
    args: [hash as Hex],
  })

const grantsOf = async (address: `0x${string}`) =>
  (await aw.getWallet({ wallet: address })).wallet.smart!.grants

describe('a superseded session grant', () => {
  it('superseded before the wallet is deployed, is revoked on chain once its first op deploys it', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'grants-undeployed', kind: 'smart' })
    const first = wallet.smart!.delegationHashes
    // Two rule changes before any op: neither old grant can be revoked yet (the wallet has no code).
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '2' }],
    })
    const second = (await aw.getWallet({ wallet: wallet.address })).wallet.smart!.delegationHashes
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
    })
    const current = (await aw.getWallet({ wallet: wallet.address })).wallet.smart!.delegationHashes
    expect(await client.getCode({ address: wallet.address })).toBeUndefined()
    expect(await Promise.all([...first, ...second].map(disabled))).toEqual(
      [...first, ...second].map(() => false),
    )
    expect(await grantsOf(wallet.address)).toEqual([
      expect.objectContaining({ state: 'active', delegationHashes: current }),
      expect.objectContaining({ state: 'pending_revocation', delegationHashes: second }),
      expect.objectContaining({ state: 'pending_revocation', delegationHashes: first }),
    ])

    // The first send deploys the wallet; from then on the old grants are revoked without another change.
    await devnet.faucet(wallet.address, parseEther('2'))
    const sent = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    expect((await aw.waitForTransaction({ transaction: sent.transaction.id })).transaction.status).toBe(
      'confirmed',
    )
    await expect
      .poll(() => Promise.all([...first, ...second].map(disabled)), { timeout: 10_000 })
      .toEqual([...first, ...second].map(() => true))
    expect(await Promise.all(current.map(disabled))).toEqual(current.map(() => false))
    await expect
      .poll(async () => (await grantsOf(wallet.address))?.map(({ state }) => state), { timeout: 10_000 })
      .toEqual(['active', 'revoked', 'revoked'])

    // The current grant still carries sends.
    const next = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    expect((await aw.waitForTransaction({ transaction: next.transaction.id })).transaction.status).toBe(
      'confirmed',
    )
  })

  it('superseded after deployment, is revoked at once and shown revoked, with the active one', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'grants-deployed', kind: 'smart' })
    await devnet.faucet(wallet.address, parseEther('2'))
    const sent = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    await aw.waitForTransaction({ transaction: sent.transaction.id })
    const before = wallet.smart!.delegationHashes
    expect(await grantsOf(wallet.address)).toEqual([
      expect.objectContaining({
        state: 'active',
        delegationHashes: before,
        expiresAt: wallet.smart!.expiresAt,
      }),
    ])

    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
    })

    expect(await Promise.all(before.map(disabled))).toEqual(before.map(() => true))
    const { wallet: after } = await aw.getWallet({ wallet: wallet.address })
    expect(after.smart!.grants).toEqual([
      expect.objectContaining({ state: 'active', delegationHashes: after.smart!.delegationHashes }),
      expect.objectContaining({ state: 'revoked', delegationHashes: before }),
    ])
  })
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
