import {
  type AgentWallet,
  type AuditLine,
  auditLines,
  erc1271Abi,
  erc1271MagicValue,
  identityProofTypes,
  type RegisterIdentityParameters,
  relayerAccount,
  signedDigest,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { identityRegistryAbi } from '@agentwallet/devnet'
import { type Address, type Hex, type PublicClient, parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { eventsOf, fundedWallet, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// ERC-8004 identities for a smart wallet (docs/smart-accounts.md, "Identity and ENS"): the registry's
// calls go out as the wallet's user operations (msg.sender = the smart account), and what the wallet
// signs — `AgentWalletSet`, the proof of ownership — is its owner key's EIP-1271 signature.

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

const registry = () =>
  ({ address: devnet.addressBook.erc8004.identityRegistry, abi: identityRegistryAbi }) as const

async function smartWallet(name: string, eth?: string) {
  const { wallet } = await aw.createWallet({ agentName: name, kind: 'smart' })
  if (eth) await devnet.faucet(wallet.address, parseEther(eth))
  return wallet
}

async function signatures(): Promise<AuditLine[]> {
  const lines: AuditLine[] = []
  for await (const line of auditLines(aw.context.storage, 'default'))
    if (line.kind === 'vault.signature') lines.push(line)
  return lines
}

/** Registers with no approval in the way: the identity comes back at once. */
async function registerNow(parameters: RegisterIdentityParameters, options?: { idempotencyKey: string }) {
  const answer = await aw.registerIdentity(parameters, options)
  if (answer.status !== 'registered') throw new Error(`expected registered, got ${answer.status}`)
  return answer
}

/** Who owns the identity NFT and which wallet the registry binds to it, read from the chain. */
async function onChain(agentId: string) {
  const args = [BigInt(agentId)] as const
  const [owner, agentWallet] = await Promise.all([
    client.readContract({ ...registry(), functionName: 'ownerOf', args }),
    client.readContract({ ...registry(), functionName: 'getAgentWallet', args }),
  ])
  return { owner, agentWallet }
}

const isValidSignature = (wallet: Address, digest: Hex, signature: Hex) =>
  client.readContract({
    address: wallet,
    abi: erc1271Abi,
    functionName: 'isValidSignature',
    args: [digest, signature],
  })

beforeAll(async () => {
  client = publicClientOf(devnet)
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
})

describe('a smart wallet’s ERC-8004 identity', () => {
  it('registers as the smart account: it owns the NFT and is its agent wallet; the answer replays', async () => {
    const wallet = await smartWallet('smart-scout', '1')
    const registered = eventsOf(aw, 'identity.registered')
    const parameters = { wallet: wallet.address, agentName: 'smart-scout', agentType: 'research' }
    const answer = await registerNow(parameters, { idempotencyKey: 'smart-identity-1' })
    const { identity } = answer
    expect(identity).toMatchObject({ walletAddress: wallet.address, ownerAddress: wallet.address })
    expect(await onChain(identity.agentId)).toEqual({ owner: wallet.address, agentWallet: wallet.address })
    expect(registered.map((event) => event.data)).toEqual([
      expect.objectContaining({ agentId: identity.agentId, walletAddress: wallet.address }),
    ])
    // The mint and the agentURI went through the money path, each as one user operation of the wallet.
    const history = await aw.listHistory({ wallet: wallet.address, limit: 10 })
    expect(history.transactions.map((tx) => [tx.kind, tx.status])).toEqual([
      ['identity', 'confirmed'],
      ['identity', 'confirmed'],
    ])
    for (const tx of history.transactions) {
      const stored = await aw.context.storage.get('transactions', tx.id)
      expect(stored?.userOperation?.sender).toBe(wallet.smart?.sessionKey)
    }

    // The same request again: the same answer, nothing new on chain or in history.
    const replay = await aw.registerIdentity(parameters, { idempotencyKey: 'smart-identity-1' })
    expect(replay).toEqual(answer)
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(2)
    expect(registered).toHaveLength(1)

    // Its proof of ownership is the smart wallet's EIP-1271 signature: the contract and viem accept it.
    const { identity: read } = await aw.getIdentity({ agentId: identity.agentId })
    expect(read).toMatchObject({ status: 'active', walletBound: true })
    const { proof } = read
    expect(proof.signer).toBe(wallet.address)
    const { domain, primaryType, message } = proof.typedData
    const typedData = {
      domain,
      types: identityProofTypes,
      primaryType,
      message: {
        ...message,
        chainId: BigInt(message.chainId),
        agentId: BigInt(message.agentId),
        issuedAt: BigInt(message.issuedAt),
      },
    }
    expect(
      await client.verifyTypedData({ ...typedData, address: proof.signer, signature: proof.signature }),
    ).toBe(true)
    expect(await isValidSignature(wallet.address, signedDigest({ typedData }), proof.signature)).toBe(
      erc1271MagicValue,
    )
    // Recorded as the owner key's signature, for the wallet.
    const proofs = (await signatures()).filter(
      (line) => (line.payload as { for?: string }).for === 'identity_proof',
    )
    expect(proofs.at(-1)).toMatchObject({
      subjects: { walletId: wallet.id, keyId: wallet.smart?.owner },
      payload: { scheme: 'erc1271', digest: signedDigest({ typedData }) },
    })
  })

  it('binds an undeployed smart wallet as the agent wallet of an EOA’s identity by its EIP-1271 signature', async () => {
    const owner = await fundedWallet(aw, devnet, '1', 'eoa-owner')
    const agent = await smartWallet('smart-agent')
    expect(await client.getCode({ address: agent.address })).toBeUndefined()

    const { identity } = await registerNow({
      wallet: agent.address,
      owner: owner.address,
      agentName: 'smart-agent',
      agentType: 'trading',
    })
    // The registry checked `AgentWalletSet` through the smart wallet's isValidSignature, deployed for it.
    expect(await onChain(identity.agentId)).toEqual({ owner: owner.address, agentWallet: agent.address })
    expect(await client.getCode({ address: agent.address })).toMatch(/^0x.+/)
    const history = await aw.listHistory({ wallet: owner.address, limit: 10 })
    expect(history.transactions.map((tx) => tx.kind)).toEqual(['identity', 'identity', 'identity'])
    const bound = (await signatures()).filter(
      (line) => (line.payload as { for?: string }).for === 'identity_agent_wallet',
    )
    expect(bound).toEqual([
      expect.objectContaining({
        subjects: expect.objectContaining({ walletId: agent.id, keyId: agent.smart?.owner }),
        payload: expect.objectContaining({ scheme: 'erc1271', agentId: identity.agentId }),
      }),
    ])
    expect((await aw.getIdentity({ agentId: identity.agentId })).identity.status).toBe('active')
  })

  it('a smart owner sends setAgentWallet as its op for another smart wallet’s signature', async () => {
    const owner = await smartWallet('smart-owner', '1')
    const agent = await smartWallet('smart-bound')
    const { identity } = await registerNow({
      wallet: agent.address,
      owner: owner.address,
      agentName: 'smart-bound',
      agentType: 'ops',
    })
    expect(await onChain(identity.agentId)).toEqual({ owner: owner.address, agentWallet: agent.address })
    // The owner's two steps after the mint each went out as one user operation of the owner.
    const history = await aw.listHistory({ wallet: owner.address, limit: 10 })
    for (const tx of history.transactions) {
      const stored = await aw.context.storage.get('transactions', tx.id)
      expect(stored?.userOperation?.sender).toBe(owner.smart?.sessionKey)
    }
    expect(history.count).toBe(3)
  })

  it('a step a smart owner’s rule pauses waits for its approval, then goes on; setAgentWallet is signed afresh', async () => {
    const owner = await smartWallet('smart-hitl-owner', '1')
    const agent = await smartWallet('smart-hitl-agent')
    await aw.updatePolicyRules({ wallet: owner.address, rules: [{ type: 'require_approval', always: true }] })
    const human = aw.as({ tenantId: 'default', id: 'human', role: 'approver' })
    const result = await aw.registerIdentity({
      wallet: agent.address,
      owner: owner.address,
      agentName: 'smart-hitl',
      agentType: 'ops',
    })
    if (result.status !== 'pending_approval') throw new Error(`expected a pause, got ${result.status}`)
    const registration = () => aw.context.storage.get('identities', result.identity.id)
    let approvalId = result.approval.id
    for (const next of ['setAgentURI', 'setAgentWallet', undefined] as const) {
      await human.approve({ approvalId })
      await expect
        .poll(
          async () => {
            const record = await registration()
            return next
              ? record?.step === next &&
                  record.status === 'awaiting_approval' &&
                  record.approvalId !== approvalId
              : record?.status
          },
          { timeout: 20_000 },
        )
        .toBe(next ? true : 'registered')
      approvalId = (await registration())?.approvalId ?? ''
    }
    const agentId = (await registration())?.agentId
    if (!agentId) throw new Error('no agentId')
    expect(await onChain(agentId)).toEqual({ owner: owner.address, agentWallet: agent.address })
    const bound = (await signatures()).filter(
      (line) =>
        (line.payload as { for?: string; agentId?: string }).for === 'identity_agent_wallet' &&
        (line.payload as { agentId?: string }).agentId === agentId,
    )
    // Signed when the step was first judged, and again when its approval released it.
    expect(bound.length).toBeGreaterThanOrEqual(2)
    expect(bound.every((line) => line.subjects.keyId === agent.smart?.owner)).toBe(true)
  })

  it('the policy still judges each step of a smart wallet’s registration', async () => {
    const wallet = await smartWallet('smart-denied', '1')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'deny_recipients', addresses: [devnet.addressBook.erc8004.identityRegistry] }],
    })
    await expect(
      aw.registerIdentity({ wallet: wallet.address, agentName: 'smart-denied', agentType: 'x' }),
    ).rejects.toMatchObject({ code: 'policy_blocked' })
    const history = await aw.listHistory({ wallet: wallet.address })
    expect(history.transactions.map((tx) => tx.status)).toEqual(['blocked'])
  })
})
