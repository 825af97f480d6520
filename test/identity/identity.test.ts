import type { AgentWallet, IdentityRecord, RegisterIdentityParameters } from '@agentwallet/core'
import { fromDataUri } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { identityRegistryAbi } from '@agentwallet/devnet'
import { encodeFunctionData, verifyTypedData, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

useDevnetAgentWallet((started) => ({ devnet, aw } = started))

/** Registers with no approval in the way: the identity comes back at once. */
async function registerNow(wallet: AgentWallet, parameters: RegisterIdentityParameters) {
  const result = await wallet.registerIdentity(parameters)
  if ('status' in result) throw new Error(`Expected a registered identity, got ${result.status}`)
  return result
}

const human = () => aw.as({ tenantId: 'default', id: 'human', role: 'approver' })
const registrationOf = (id: string) => aw.context.storage.get<IdentityRecord>('identities', id)

const registry = () =>
  ({ address: devnet.addressBook.erc8004.identityRegistry, abi: identityRegistryAbi }) as const

describe('ERC-8004 identities', () => {
  it('registers an identity and reads it back from chain, with the registration file and metadata', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '1', 'scout')
    const identity = await registerNow(aw, {
      walletAddress: wallet.address,
      agentName: 'scout',
      agentType: 'research',
      capabilities: ['search', 'summarize'],
      services: [{ name: 'A2A', endpoint: 'https://scout.example/agent.json' }],
    })
    expect(identity.walletAddress).toBe(wallet.address)
    const agentId = BigInt(identity.agentId)
    expect(await client.readContract({ ...registry(), functionName: 'ownerOf', args: [agentId] })).toBe(
      wallet.address,
    )
    expect(
      await client.readContract({ ...registry(), functionName: 'getAgentWallet', args: [agentId] }),
    ).toBe(wallet.address)

    const uri = await client.readContract({ ...registry(), functionName: 'tokenURI', args: [agentId] })
    expect(uri.startsWith('data:application/json;base64,')).toBe(true)
    expect(fromDataUri(uri)).toMatchObject({
      name: 'scout',
      agentType: 'research',
      capabilities: ['search', 'summarize'],
      services: [{ name: 'A2A', endpoint: 'https://scout.example/agent.json' }],
      registrations: [
        {
          agentId: identity.agentId,
          agentRegistry: `eip155:31337:${devnet.addressBook.erc8004.identityRegistry}`,
        },
      ],
    })

    const read = await aw.getIdentity(identity.agentId)
    expect(read.status).toBe('active')
    expect(read.walletBound).toBe(true)
    expect(read.onChain).toEqual({
      owner: wallet.address,
      agentURI: uri,
      agentWallet: wallet.address,
      metadata: { agentName: 'scout', agentType: 'research' },
    })
    expect(read.capabilities).toEqual(['search', 'summarize'])
    expect(read.registries.validation).toBe(devnet.addressBook.erc8004.validationRegistry)
    expect(read.warnings).toEqual([])

    // Every step went through the money path as an `identity` intent.
    const history = await aw.listHistory(wallet.address, { limit: 10 })
    expect(history.transactions.map((tx) => tx.kind)).toEqual(['identity', 'identity'])

    expect((await aw.listIdentities()).identities.map((entry) => entry.agentId)).toContain(identity.agentId)
    const ofWallet = await aw.identitiesOfWallet(wallet.address)
    expect(ofWallet.count).toBe(1)
    expect(ofWallet.identities[0]?.agentId).toBe(identity.agentId)
  })

  it('gives a proof of ownership anyone can verify with viem', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'prover')
    const identity = await registerNow(aw, {
      walletAddress: wallet.address,
      agentName: 'prover',
      agentType: 'oracle',
    })
    const { proof } = await aw.getIdentity(identity.agentId)
    // Round-trip through JSON, as an HTTP client would receive it.
    const received = JSON.parse(JSON.stringify(proof)) as typeof proof
    const { domain, types, primaryType, message } = received.typedData
    const verify = (address: `0x${string}`) =>
      verifyTypedData({
        address,
        domain,
        types,
        primaryType,
        signature: received.signature,
        message: {
          ...message,
          chainId: BigInt(message.chainId),
          agentId: BigInt(message.agentId),
          issuedAt: BigInt(message.issuedAt),
        },
      })
    expect(received.signer).toBe(wallet.address)
    expect(message).toMatchObject({
      chainId: '31337',
      registry: devnet.addressBook.erc8004.identityRegistry,
      agentId: identity.agentId,
      agentWallet: wallet.address,
    })
    expect(await verify(wallet.address)).toBe(true)
    expect(await verify(freshAddress())).toBe(false)
  })

  it('binds a separate agent wallet with its EIP-712 signature when another managed wallet owns the NFT', async () => {
    const client = publicClientOf(devnet)
    const owner = await fundedWallet(aw, devnet, '1', 'owner')
    const agent = await aw.createWallet({ agentName: 'worker' })
    const identity = await registerNow(aw, {
      walletAddress: agent.address,
      owner: owner.address,
      agentName: 'worker',
      agentType: 'executor',
    })
    const agentId = BigInt(identity.agentId)
    expect(await client.readContract({ ...registry(), functionName: 'ownerOf', args: [agentId] })).toBe(
      owner.address,
    )
    expect(
      await client.readContract({ ...registry(), functionName: 'getAgentWallet', args: [agentId] }),
    ).toBe(agent.address)
    expect((await aw.getIdentity(identity.agentId)).status).toBe('active')
    expect((await aw.listHistory(owner.address)).count).toBe(3)
  })

  it('reports that a transfer of the NFT cleared the agent wallet', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'seller')
    const identity = await registerNow(aw, {
      walletAddress: wallet.address,
      agentName: 'seller',
      agentType: 'trading',
    })
    const buyer = freshAddress()
    const { transaction } = await aw.send(wallet.address, {
      to: devnet.addressBook.erc8004.identityRegistry,
      value: '0',
      data: encodeFunctionData({
        abi: identityRegistryAbi,
        functionName: 'transferFrom',
        args: [wallet.address, buyer, BigInt(identity.agentId)],
      }),
    })
    expect((await aw.waitForTransaction(transaction.id)).status).toBe('confirmed')

    const read = await aw.getIdentity(identity.agentId)
    expect(read.status).toBe('wallet_unbound')
    expect(read.walletBound).toBe(false)
    expect(read.onChain.owner).toBe(buyer)
    expect(read.onChain.agentWallet).toBe(null)
    expect(read.proof.matchesChain).toBe(false)
    expect(read.warnings).toHaveLength(2)
    const client = publicClientOf(devnet)
    expect(
      await client.readContract({
        ...registry(),
        functionName: 'getAgentWallet',
        args: [BigInt(identity.agentId)],
      }),
    ).toBe(zeroAddress)
  })

  it('refuses bad input and unknown identities with their codes', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'bad')
    await expect(
      aw.registerIdentity({ walletAddress: wallet.address, agentName: '', agentType: 'x' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
    })
    await expect(
      aw.registerIdentity({
        walletAddress: wallet.address,
        agentName: 'a',
        agentType: 'x',
        extra: 1,
      } as never),
    ).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(
      aw.registerIdentity({ walletAddress: freshAddress(), agentName: 'a', agentType: 'x' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    })
    await expect(aw.getIdentity('999999')).rejects.toMatchObject({ code: 'not_found' })
    await expect(aw.getIdentity('-1')).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(aw.identitiesOfWallet(freshAddress())).rejects.toMatchObject({ code: 'not_found' })
  })

  it('blocks registration through the policy engine', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'blocked')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'allow_contracts', contracts: [{ address: freshAddress() }] }],
    })
    await expect(
      aw.registerIdentity({ walletAddress: wallet.address, agentName: 'blocked', agentType: 'x' }),
    ).rejects.toMatchObject({ code: 'policy_blocked' })
    expect((await aw.identitiesOfWallet(wallet.address)).count).toBe(0)
  })
})

describe('ERC-8004 registration under human approval', () => {
  // Each step goes through the policy on its own: a rule that pauses every identity call of the
  // owner wallet pauses the mint, then setAgentURI, then setAgentWallet, each approved separately.
  it('pauses each step for approval, continues after each approve, and ends registered with one identity.registered', async () => {
    const client = publicClientOf(devnet)
    const owner = await fundedWallet(aw, devnet, '1', 'hitl-owner')
    const agent = await aw.createWallet({ agentName: 'hitl-agent' })
    await aw.updatePolicyRules({
      wallet: owner.address,
      rules: [{ type: 'require_approval', always: true }],
    })
    const registered: string[] = []
    aw.bus.on('identity.registered', (event) => {
      const data = event.data as { walletAddress: string; agentId: string }
      if (data.walletAddress === agent.address) registered.push(data.agentId)
    })

    const result = await aw.registerIdentity({
      walletAddress: agent.address,
      owner: owner.address,
      agentName: 'hitl',
      agentType: 'executor',
      capabilities: ['approve-me'],
    })
    if (!('status' in result)) throw new Error('expected a paused registration')
    expect(result.status).toBe('pending_approval')
    expect(result.identity).toMatchObject({
      status: 'awaiting_approval',
      step: 'register',
      agentId: null,
      approvalId: result.approval.id,
      walletAddress: agent.address,
      ownerAddress: owner.address,
    })
    expect((await aw.identitiesOfWallet(agent.address)).count).toBe(0)

    const steps: string[] = []
    let approvalId = result.approval.id
    for (const step of ['register', 'setAgentURI', 'setAgentWallet'] as const) {
      steps.push(step)
      await human().approve(approvalId)
      if (step === 'setAgentWallet') break
      // The next step goes through the policy again and pauses for its own approval.
      await expect
        .poll(async () => (await registrationOf(result.identity.id))?.step, { timeout: 20_000 })
        .toBe(step === 'register' ? 'setAgentURI' : 'setAgentWallet')
      await expect
        .poll(async () => (await registrationOf(result.identity.id))?.status, { timeout: 20_000 })
        .toBe('awaiting_approval')
      const record = (await registrationOf(result.identity.id))!
      expect(record.approvalId).not.toBe(approvalId)
      approvalId = record.approvalId!
    }
    expect(steps).toEqual(['register', 'setAgentURI', 'setAgentWallet'])
    await expect
      .poll(async () => (await registrationOf(result.identity.id))?.status, { timeout: 20_000 })
      .toBe('registered')

    const record = (await registrationOf(result.identity.id))!
    const agentId = BigInt(record.agentId!)
    expect(await client.readContract({ ...registry(), functionName: 'ownerOf', args: [agentId] })).toBe(
      owner.address,
    )
    expect(
      await client.readContract({ ...registry(), functionName: 'getAgentWallet', args: [agentId] }),
    ).toBe(agent.address)
    const uri = await client.readContract({ ...registry(), functionName: 'tokenURI', args: [agentId] })
    expect(uri).toBe(record.agentURI)
    expect(fromDataUri(uri)).toMatchObject({ name: 'hitl', capabilities: ['approve-me'] })
    expect((await aw.getIdentity(record.agentId!)).status).toBe('active')
    expect((await aw.identitiesOfWallet(agent.address)).count).toBe(1)
    await expect.poll(() => registered, { timeout: 5_000 }).toEqual([record.agentId])
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(registered).toEqual([record.agentId])
    expect((await aw.listHistory(owner.address)).count).toBe(3)
  })

  it('ends the registration failed with the reason when the approver rejects a step', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'hitl-rejected')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', always: true }],
    })
    const result = await aw.registerIdentity({
      walletAddress: wallet.address,
      agentName: 'rejected',
      agentType: 'x',
    })
    if (!('status' in result)) throw new Error('expected a paused registration')
    await human().reject(result.approval.id, { reason: 'not this agent' })
    await expect
      .poll(async () => (await registrationOf(result.identity.id))?.status, { timeout: 20_000 })
      .toBe('failed')
    const record = (await registrationOf(result.identity.id))!
    expect(record.step).toBe('register')
    expect(record.error).toMatchObject({ code: 'transaction_failed' })
    expect(record.error?.message).toContain('rejected')
    expect((await aw.identitiesOfWallet(wallet.address)).count).toBe(0)
    expect((await aw.listHistory(wallet.address)).transactions.map((tx) => tx.status)).toEqual(['rejected'])
  })
})

describe('ERC-8004 on a chain without registries', () => {
  it('answers unsupported_protocol when the address book has no Identity Registry, and tolerates a missing Validation Registry', async () => {
    const { erc8004, ...rest } = devnet.addressBook
    const bare = await agentWalletOn(devnet, {
      chains: {
        devnet: { provider: devnet.provider, chainId: 31337, contracts: { ...rest, erc8004: undefined } },
      },
      track: false,
    })
    const wallet = await bare.createWallet({ agentName: 'nobody' })
    await expect(
      bare.registerIdentity({ walletAddress: wallet.address, agentName: 'n', agentType: 't' }),
    ).rejects.toMatchObject({
      code: 'unsupported_protocol',
    })
    await bare.close()

    const noValidation = await agentWalletOn(devnet, {
      chains: {
        devnet: {
          provider: devnet.provider,
          chainId: 31337,
          contracts: {
            ...rest,
            erc8004: {
              identityRegistry: erc8004.identityRegistry,
              reputationRegistry: erc8004.reputationRegistry,
            },
          },
        },
      },
    })
    const funded = await fundedWallet(noValidation, devnet, '1', 'nv')
    const identity = await registerNow(noValidation, {
      walletAddress: funded.address,
      agentName: 'nv',
      agentType: 't',
    })
    const read = await noValidation.getIdentity(identity.agentId)
    expect(read.registries.validation).toBe(null)
    expect(read.status).toBe('active')
    await noValidation.close()
  })
})
