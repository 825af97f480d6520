import { type AgentWallet, type AuditLine, auditLines, relayerAccount } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, erc20Abi, type PublicClient, parseAbi, parseEther, parseUnits } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

const disabledDelegationsAbi = parseAbi(['function disabledDelegations(bytes32) view returns (bool)'])

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
let usdc: Address
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  client = publicClientOf(devnet)
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  // The operator funds the tenant's relayer: it pays the session account's delegation and every handleOps.
  const relayer = await relayerAccount(aw.context, 'default')
  await devnet.faucet(relayer.address, parseEther('10'))
})

describe('a smart wallet sends through its session key’s user operations', () => {
  it('sends at once from a wallet never used: one deployment and top-up, every send confirmed once', async () => {
    // Each send finds the session account's deposit empty; they take turns readying it (one owner op
    // at the EntryPoint nonce), never signing the same nonce twice and failing the others.
    const { wallet } = await aw.createWallet({ agentName: 'smart-rush', kind: 'smart' })
    await devnet.faucet(wallet.address, parseEther('5'))
    const recipients = [freshAddress(), freshAddress(), freshAddress(), freshAddress()]
    const sent = await Promise.all(
      recipients.map((to) => aw.send({ wallet: wallet.address, to, value: '0.1' })),
    )
    const done = await Promise.all(
      sent.map(({ transaction }) => aw.waitForTransaction({ transaction: transaction.id })),
    )
    expect(done.map(({ transaction }) => transaction.status)).toEqual(Array(4).fill('confirmed'))
    for (const to of recipients) expect(await client.getBalance({ address: to })).toBe(parseEther('0.1'))
  })

  it('is created as a smart account whose keys stay in the vault, and sends ETH, a token and a call', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'smart', kind: 'smart' })
    expect(wallet.kind).toBe('smart')
    expect(wallet.smart?.sessionKey).toMatch(/^0x/)
    expect(wallet.smart?.owner).not.toBe(wallet.address)
    await devnet.faucet(wallet.address, parseEther('5'))
    await devnet.mintToken('USDC', wallet.address, parseUnits('100', 6))
    const recipient = freshAddress()

    const sent = await aw.send({ wallet: wallet.address, to: recipient, value: '0.25' })
    const done = await aw.waitForTransaction({ transaction: sent.transaction.id })

    expect(done.transaction.status).toBe('confirmed')
    expect(done.transaction.from).toBe(wallet.address)
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.25'))
    // The wallet executed it: the session account is the op's sender, the relayer the tx's.
    const receipt = await client.getTransactionReceipt({ hash: done.transaction.hash! })
    expect(receipt.from.toLowerCase()).toBe(
      (await relayerAccount(aw.context, 'default')).address.toLowerCase(),
    )

    const token = await aw.send({
      wallet: wallet.address,
      to: recipient,
      value: '12.5',
      token: usdc,
    })
    expect((await aw.waitForTransaction({ transaction: token.transaction.id })).transaction.status).toBe(
      'confirmed',
    )
    expect(
      await client.readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [recipient],
      }),
    ).toBe(parseUnits('12.5', 6))
  })

  it('records every signature its keys make in the audit trail: the grant, the 7702 authorization, the owner and session ops', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'smart-audited', kind: 'smart' })
    await devnet.faucet(wallet.address, parseEther('2'))
    const sent = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
    await aw.waitForTransaction({ transaction: sent.transaction.id })
    const { transaction } = await aw.getTransaction({ transaction: sent.transaction.id })

    const lines: AuditLine[] = []
    for await (const line of auditLines(aw.context.storage, 'default')) lines.push(line)
    const signed = lines.filter((line) => line.kind === 'vault.signature')
    const by = (key: string | undefined, kind: string) =>
      signed.filter(
        (line) =>
          line.subjects.keyId?.toLowerCase() === key?.toLowerCase() &&
          (line.payload as { signed: string }).signed === kind,
      )
    const smart = wallet.smart!
    expect(by(smart.owner, 'delegations')[0]?.payload).toMatchObject({
      delegationHashes: smart.delegationHashes,
      delegate: smart.sessionKey,
    })
    expect(by(smart.sessionKey, 'authorization_7702')).toHaveLength(1)
    // The wallet's first op (deployment and the session's gas deposit) is the owner's.
    expect(by(smart.owner, 'user_operation')[0]?.payload).toMatchObject({ sender: wallet.address })
    const sessionOps = by(smart.sessionKey, 'user_operation')
    expect(sessionOps.map((line) => line.subjects.transactionId)).toEqual([transaction.id])
  })

  it('re-issues the session grant when its rules change, and the owner revokes the old one on chain', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'smart-rules', kind: 'smart' })
    await devnet.faucet(wallet.address, parseEther('3'))
    const first = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    await aw.waitForTransaction({ transaction: first.transaction.id })
    const before = wallet.smart!.delegationHashes
    // No rules yet: the grant holds the default rules' native bounds, never none (sessionGrants.test.ts).
    expect(wallet.smart!.nativeFromDefaults).toBe(true)

    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
    })

    const { wallet: after } = await aw.getWallet({ wallet: wallet.address })
    expect(after.smart!.permissions.native).toEqual({ perCall: parseEther('1').toString() })
    expect(after.smart!.nativeFromDefaults).toBeUndefined()
    expect(after.smart!.delegationHashes).not.toEqual(before)
    const delegationManager = devnet.addressBook.accountAbstraction!.delegationManager
    const disabled = (hash: `0x${string}`) =>
      client.readContract({
        address: delegationManager,
        abi: disabledDelegationsAbi,
        functionName: 'disabledDelegations',
        args: [hash],
      })
    await expect
      .poll(() => Promise.all(before.map((hash) => disabled(hash as `0x${string}`))))
      .toEqual(before.map(() => true))
    // The new grant carries the next send.
    const next = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.2' })
    expect((await aw.waitForTransaction({ transaction: next.transaction.id })).transaction.status).toBe(
      'confirmed',
    )
  })
})
