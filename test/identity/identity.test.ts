import type { AgentWallet } from '@agentwallet/core'
import { fromDataUri } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { identityRegistryAbi } from '@agentwallet/devnet'
import { encodeFunctionData, verifyTypedData, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  publicClientOf,
  startDevnet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

beforeAll(async () => {
  devnet = await startDevnet()
  aw = await agentWalletOn(devnet)
})
afterAll(async () => {
  await aw?.close()
  await devnet?.close()
})

const registry = () =>
  ({ address: devnet.addressBook.erc8004.identityRegistry, abi: identityRegistryAbi }) as const

describe('ERC-8004 identities', () => {
  it('registers an identity and reads it back from chain, with the registration file and metadata', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '1', 'scout')
    const identity = await aw.registerIdentity({
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
    const identity = await aw.registerIdentity({
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
    const identity = await aw.registerIdentity({
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
    const identity = await aw.registerIdentity({
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
    const identity = await noValidation.registerIdentity({
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
