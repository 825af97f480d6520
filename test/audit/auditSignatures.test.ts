import { type AgentWallet, type AuditLine, auditLines } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, hashTypedData, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, fundedWallet, useDevnetAgentWallet, withStatus } from '../helpers/devnetAgentWallet.js'
import { startX402ResourceServer, type X402ResourceServer } from '../helpers/x402ResourceServer.js'

// Every signature the vault makes is in the audit trail, with what was signed and for which record,
// written before the signature is used (docs/security.md, "The audit trail").
let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  audit: { key: 'b2'.repeat(32), checkpointEvery: 100 },
  webhooks: { allowPrivateTargets: ['127.0.0.0/8'] },
})

const price = 10_000n
let usdc: Address
let resources: X402ResourceServer
beforeAll(async () => {
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  resources = await startX402ResourceServer(devnet, usdc, [
    { path: '/paid', amount: price, payTo: freshAddress() },
    { path: '/refused', amount: price, payTo: freshAddress(), status: 500 },
  ])
})
afterAll(async () => {
  await resources?.close()
})

type Signed = { signed: string; for?: string; primaryType?: string; digest?: string; domain?: unknown }

/** The tenant's `vault.signature` entries so far. */
async function signatures(): Promise<(AuditLine & { payload: Signed })[]> {
  const lines: AuditLine[] = []
  for await (const line of auditLines(aw.context.storage, 'default')) lines.push(line)
  return lines.filter((line) => line.kind === 'vault.signature') as (AuditLine & { payload: Signed })[]
}

async function payingWallet(): Promise<{ address: Address; id: string }> {
  const { wallet } = await aw.createWallet({ agentName: 'x402-payer' })
  await devnet.mintToken(usdc, wallet.address, parseUnits('10', 6))
  await devnet.faucet(wallet.address, parseEther('1'))
  return wallet
}

describe('vault signatures in the audit trail', () => {
  it('records the x402 authorization, for its payment, with its typed data digest', async () => {
    const wallet = await payingWallet()
    const paid = withStatus(
      await aw.fetch(`${resources.url}/paid`, {}, { wallet: wallet.address }),
      'completed',
    )
    const paymentId = paid.payment!.transaction.id
    const entry = (await signatures()).find((line) => line.subjects.transactionId === paymentId)
    expect(entry).toMatchObject({
      subjects: { walletId: wallet.id, keyId: wallet.address },
      payload: {
        signed: 'typed_data',
        for: 'x402_payment',
        primaryType: 'TransferWithAuthorization',
        domain: { verifyingContract: usdc },
        digest: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      },
    })
  })

  it('records the cancellation of an unused authorization before it is sent', async () => {
    const wallet = await payingWallet()
    const refused = await aw.fetch(`${resources.url}/refused`, {}, { wallet: wallet.address }).then(
      () => undefined,
      (error: { details: { transactionId: string } }) => error,
    )
    const paymentId = refused!.details.transactionId
    await aw.cancelPayment({ payment: paymentId })
    const entries = (await signatures()).filter((line) => line.subjects.transactionId === paymentId)
    expect(entries.map((line) => line.payload.for)).toEqual(['x402_payment', 'x402_cancel'])
    expect(entries[1]!.payload).toMatchObject({
      primaryType: 'CancelAuthorization',
      domain: { verifyingContract: usdc },
    })
  })

  it('records each managed owner’s Safe signature with the safeTxHash it signed', async () => {
    const owner1 = await fundedWallet(aw, devnet, '5', 'owner-1')
    const owner2 = await fundedWallet(aw, devnet, '5', 'owner-2')
    const deployed = await aw.deploySafe({
      owners: [owner1.address, owner2.address],
      threshold: 2,
      wallet: owner1.address,
    })
    if (deployed.status !== 'deployed') throw new Error('expected the Safe to be deployed')
    const safe = deployed.address
    await devnet.faucet(safe, parseEther('1'))
    const proposed = await aw.proposeSafeTransaction({
      safe,
      wallet: owner1.address,
      to: freshAddress(),
      value: '0.1',
    })
    const { safeTxHash, id } = proposed.proposal
    await aw.confirmSafeTransaction({ safe, safeTxHash, wallet: owner2.address })
    const entries = (await signatures()).filter((line) => line.payload.digest === safeTxHash)
    expect(entries.map((line) => [line.payload.for, line.subjects.walletId])).toEqual([
      ['safe_proposal', owner1.id],
      ['safe_confirmation', owner2.id],
    ])
    expect(entries[0]!.payload).toMatchObject({ primaryType: 'SafeTx', proposalId: id })
  })

  it('records the identity proof before it is handed out', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'scout')
    const registered = await aw.registerIdentity({
      wallet: wallet.address,
      agentName: 'scout',
      agentType: 'research',
    })
    if (registered.status !== 'registered') throw new Error('expected a registered identity')
    const { proof } = (await aw.getIdentity({ agentId: registered.identity.agentId })).identity
    const { message } = proof.typedData
    const digest = hashTypedData({
      ...proof.typedData,
      message: {
        ...message,
        chainId: BigInt(message.chainId),
        agentId: BigInt(message.agentId),
        issuedAt: BigInt(message.issuedAt),
      },
    })
    const entry = (await signatures()).find((line) => line.payload.digest === digest)
    expect(entry).toMatchObject({
      subjects: { walletId: wallet.id, keyId: wallet.address },
      payload: {
        for: 'identity_proof',
        primaryType: 'AgentIdentityProof',
        agentId: registered.identity.agentId,
      },
    })
  })

  it('records the AgentWalletSet typed data the agent wallet signs when another wallet owns the NFT', async () => {
    const owner = await fundedWallet(aw, devnet, '1', 'nft-owner')
    const { wallet: agent } = await aw.createWallet({ agentName: 'worker' })
    const registered = await aw.registerIdentity({
      wallet: agent.address,
      owner: owner.address,
      agentName: 'worker',
      agentType: 'executor',
    })
    if (registered.status !== 'registered') throw new Error('expected a registered identity')
    const entry = (await signatures()).find((line) => line.payload.for === 'identity_agent_wallet')
    expect(entry).toMatchObject({
      subjects: { keyId: agent.address },
      payload: {
        primaryType: 'AgentWalletSet',
        agentId: registered.identity.agentId,
        domain: { verifyingContract: devnet.addressBook.erc8004.identityRegistry },
      },
    })
  })
})
