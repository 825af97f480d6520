import {
  type AgentWallet,
  type AuditLine,
  auditLines,
  type Principal,
  relayerAccount,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, concat, erc20Abi, type Hex, type PublicClient, parseEther, parseUnits } from 'viem'
import { recoverAuthorizationAddress } from 'viem/utils'
import { beforeAll, describe, expect, it } from 'vitest'
import { approver, freshAddress, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// An EOA wallet upgraded in place by EIP-7702 (docs/smart-accounts.md, "Upgrading an EOA wallet"):
// its own key, which stays in the vault, signs the delegation; the agent then acts through a session key.

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
let usdc: Address
let relayer: Address
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

const agent: Principal = { tenantId: 'default', id: 'agent-upgraded', role: 'agent' }

beforeAll(async () => {
  client = publicClientOf(devnet)
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  relayer = (await relayerAccount(aw.context, 'default')).address
  await devnet.faucet(relayer, parseEther('10'))
})

/** An agent's funded EOA wallet: 5 ETH and 100 USDC. */
async function fundedEoa(agentName: string): Promise<Address> {
  const { wallet } = await aw.as(agent).createWallet({ agentName })
  await devnet.faucet(wallet.address, parseEther('5'))
  await devnet.mintToken('USDC', wallet.address, parseUnits('100', 6))
  return wallet.address
}

async function trail(): Promise<AuditLine[]> {
  const lines: AuditLine[] = []
  for await (const line of auditLines(aw.context.storage, 'default')) lines.push(line)
  return lines
}

const usdcOf = (address: Address) =>
  client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })

describe('upgrading an EOA wallet by EIP-7702', () => {
  it('delegates the EOA in place, keeps its address and funds, and its sends go out as the session key’s user operations', async () => {
    const address = await fundedEoa('upgraded')
    const before = { eth: await client.getBalance({ address }), usdc: await usdcOf(address) }

    const { wallet } = await aw.upgradeWallet({ wallet: address })

    expect(wallet).toMatchObject({ address, kind: 'smart', smart: { account: 'eip7702', owner: address } })
    const sessionKey = wallet.smart!.sessionKey
    expect(sessionKey).not.toBe(address)
    const { eip7702DeleGator } = devnet.addressBook.accountAbstraction!
    const designator = concat(['0xef0100', eip7702DeleGator]).toLowerCase()
    expect((await client.getCode({ address }))?.toLowerCase()).toBe(designator)
    expect((await client.getCode({ address: sessionKey }))?.toLowerCase()).toBe(designator)
    // The relayer paid the type-4 transaction: the wallet's funds did not move.
    expect(await client.getBalance({ address })).toBe(before.eth)
    expect(await usdcOf(address)).toBe(before.usdc)
    expect((await aw.as(agent).getWallet({ wallet: address })).wallet).toEqual(wallet)

    const recipient = freshAddress()
    const sent = await aw.as(agent).send({ wallet: address, to: recipient, value: '0.25' })
    const done = await aw.as(agent).waitForTransaction({ transaction: sent.transaction.id })
    expect(done.transaction).toMatchObject({ status: 'confirmed', from: address })
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.25'))
    const carrier = await client.getTransactionReceipt({ hash: done.transaction.hash! })
    expect(carrier.from.toLowerCase()).toBe(relayer.toLowerCase())
    const stored = await aw.context.storage.get('transactions', sent.transaction.id)
    expect(stored?.userOperation?.sender).toBe(sessionKey)

    const token = await aw.as(agent).send({ wallet: address, to: recipient, value: '12.5', token: usdc })
    const tokenDone = await aw.as(agent).waitForTransaction({ transaction: token.transaction.id })
    expect(tokenDone.transaction.status).toBe('confirmed')
    expect(await usdcOf(recipient)).toBe(parseUnits('12.5', 6))
    expect(await usdcOf(address)).toBe(before.usdc - parseUnits('12.5', 6))
    // The wallet's own key signed no transaction after the upgrade: its account nonce is where the
    // authorization left it (the upgrade's authorization took nonce 0).
    expect(await client.getTransactionCount({ address })).toBe(1)
  })

  it('records the wallet key’s authorization in the audit trail: its digest and a signature that recovers to the wallet', async () => {
    const address = await fundedEoa('upgraded-audited')
    const { wallet } = await aw.upgradeWallet({ wallet: address })

    const authorizations = (await trail()).filter(
      (line) =>
        line.kind === 'vault.signature' &&
        line.subjects.walletId === wallet.id &&
        (line.payload as { signed: string }).signed === 'authorization_7702',
    )
    expect(authorizations.map((line) => line.subjects.keyId)).toEqual([address, wallet.smart!.sessionKey])
    const payload = authorizations[0]!.payload as {
      delegateTo: Address
      chainId: number
      nonce: number
      digest: Hex
      signature: { r: Hex; s: Hex; yParity: number }
    }
    expect(payload.delegateTo).toBe(devnet.addressBook.accountAbstraction!.eip7702DeleGator)
    const recovered = await recoverAuthorizationAddress({
      authorization: { address: payload.delegateTo, chainId: payload.chainId, nonce: payload.nonce },
      signature: payload.signature,
    })
    expect(recovered).toBe(address)
  })

  it('compiles the wallet’s rules into the session key’s permissions, and the policy still judges its sends', async () => {
    const address = await fundedEoa('upgraded-ruled')
    await aw.updatePolicyRules({
      wallet: address,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
    })

    const { wallet } = await aw.upgradeWallet({ wallet: address })

    expect(wallet.smart!.permissions.native).toEqual({ perCall: parseEther('1').toString() })
    await expect(
      aw.as(agent).send({ wallet: address, to: freshAddress(), value: '2' }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
    })
    const allowed = await aw.as(agent).send({ wallet: address, to: freshAddress(), value: '0.5' })
    const done = await aw.as(agent).waitForTransaction({ transaction: allowed.transaction.id })
    expect(done.transaction.status).toBe('confirmed')
  })

  it('answers a replay under the same idempotency key with the first upgrade; without one, a second upgrade is 422', async () => {
    const address = await fundedEoa('upgraded-twice')
    const first = await aw.upgradeWallet({ wallet: address }, { idempotencyKey: 'upgrade-once' })
    const replay = await aw.upgradeWallet({ wallet: address }, { idempotencyKey: 'upgrade-once' })
    expect(replay).toEqual(first)
    const signedBy = (await trail()).filter(
      (line) =>
        line.subjects.keyId === address &&
        (line.payload as { signed?: string }).signed === 'authorization_7702',
    )
    expect(signedBy).toHaveLength(1)

    await expect(aw.upgradeWallet({ wallet: address })).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { wallet: address, kind: 'smart', flow: 'upgrade' },
    })
    await expect(aw.upgradeWallet({ wallet: address }, { idempotencyKey: 'upgrade-once' })).resolves.toEqual(
      first,
    )
  })

  it('refuses a smart wallet, a relayer, and an EOA with a send in flight, before anything is signed', async () => {
    const { wallet: smart } = await aw.createWallet({ agentName: 'born-smart', kind: 'smart' })
    await expect(aw.upgradeWallet({ wallet: smart.address })).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { kind: 'smart' },
    })
    await expect(aw.upgradeWallet({ wallet: relayer })).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { kind: 'relayer' },
    })

    const address = await fundedEoa('upgraded-busy')
    await aw.updatePolicyRules({
      wallet: address,
      rules: [{ type: 'require_approval', asset: 'native', above: '1' }],
    })
    const paused = await aw.as(agent).send({ wallet: address, to: freshAddress(), value: '2' })
    expect(paused.status).toBe('pending_approval')
    const signedBefore = (await trail()).filter((line) => line.kind === 'vault.signature').length

    await expect(aw.upgradeWallet({ wallet: address })).rejects.toMatchObject({
      code: 'conflict',
      details: { wallet: address, inFlight: 1 },
    })
    expect((await aw.getWallet({ wallet: address })).wallet.kind).toBe('eoa')
    expect((await trail()).filter((line) => line.kind === 'vault.signature')).toHaveLength(signedBefore)
    expect(await client.getCode({ address })).toBeUndefined()
  })

  it('is for admins only: the wallet’s agent and an approver are forbidden, another tenant finds nothing', async () => {
    const address = await fundedEoa('upgraded-refused')
    await expect(aw.as(agent).upgradeWallet({ wallet: address })).rejects.toMatchObject({ code: 'forbidden' })
    await expect(aw.as(approver).upgradeWallet({ wallet: address })).rejects.toMatchObject({
      code: 'forbidden',
    })
    const stranger: Principal = { tenantId: 'another', id: 'admin-elsewhere', role: 'admin' }
    await expect(aw.as(stranger).upgradeWallet({ wallet: address })).rejects.toMatchObject({
      code: 'not_found',
    })
    expect((await aw.getWallet({ wallet: address })).wallet.kind).toBe('eoa')
  })
})
