import {
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  hashTypedData,
  parseEventLogs,
  toHex,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createDevnet,
  type Devnet,
  identityRegistryAbi,
  reputationRegistryAbi,
  safeAbi,
  safeProxyFactoryAbi,
} from '../src/index.js'
import { clientsFor } from './clients.js'

const agentWalletSetTypes = {
  AgentWalletSet: [
    { name: 'agentId', type: 'uint256' },
    { name: 'newWallet', type: 'address' },
    { name: 'owner', type: 'address' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

describe('ERC-8004 registries', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet()
  })
  afterAll(() => devnet.close())

  it('registers an agent, sets its wallet with an EIP-712 signature, and clears it on transfer', async () => {
    const { publicClient, wallet } = clientsFor(devnet)
    const registry = {
      address: devnet.addressBook.erc8004.identityRegistry,
      abi: identityRegistryAbi,
    } as const
    const owner = wallet(1)
    const agentWallet = wallet(2)
    const stranger = wallet(3)

    const hash = await owner.writeContract({
      ...registry,
      functionName: 'register',
      args: ['ipfs://agent.json', [{ metadataKey: 'name', metadataValue: toHex('alpha') }]],
    })
    const receipt = await publicClient.getTransactionReceipt({ hash })
    const [registered] = parseEventLogs({
      abi: identityRegistryAbi,
      logs: receipt.logs,
      eventName: 'Registered',
    })
    const agentId = registered!.args.agentId
    expect(await publicClient.readContract({ ...registry, functionName: 'ownerOf', args: [agentId] })).toBe(
      owner.account.address,
    )
    expect(await publicClient.readContract({ ...registry, functionName: 'tokenURI', args: [agentId] })).toBe(
      'ipfs://agent.json',
    )
    expect(
      await publicClient.readContract({ ...registry, functionName: 'getMetadata', args: [agentId, 'name'] }),
    ).toBe(toHex('alpha'))
    expect(
      await publicClient.readContract({ ...registry, functionName: 'getAgentWallet', args: [agentId] }),
    ).toBe(owner.account.address)

    const block = await publicClient.getBlock()
    const deadline = block.timestamp + 120n
    const sign = (signer: typeof agentWallet) =>
      signer.account.signTypedData({
        domain: {
          name: 'ERC8004IdentityRegistry',
          version: '1',
          chainId: devnet.chain.id,
          verifyingContract: registry.address,
        },
        types: agentWalletSetTypes,
        primaryType: 'AgentWalletSet',
        message: { agentId, newWallet: agentWallet.account.address, owner: owner.account.address, deadline },
      })
    const setWallet = (signature: Hex) =>
      owner.writeContract({
        ...registry,
        functionName: 'setAgentWallet',
        args: [agentId, agentWallet.account.address, deadline, signature],
      })

    // A signature by anyone but the new wallet is refused.
    await expect(setWallet(await sign(stranger))).rejects.toThrow(/InvalidWalletSignature/)
    await setWallet(await sign(agentWallet))
    expect(
      await publicClient.readContract({ ...registry, functionName: 'getAgentWallet', args: [agentId] }),
    ).toBe(agentWallet.account.address)
    expect(
      await publicClient.readContract({
        ...registry,
        functionName: 'getMetadata',
        args: [agentId, 'agentWallet'],
      }),
    ).toBe(agentWallet.account.address.toLowerCase())

    await owner.writeContract({
      ...registry,
      functionName: 'transferFrom',
      args: [owner.account.address, stranger.account.address, agentId],
    })
    expect(await publicClient.readContract({ ...registry, functionName: 'ownerOf', args: [agentId] })).toBe(
      stranger.account.address,
    )
    expect(
      await publicClient.readContract({ ...registry, functionName: 'getAgentWallet', args: [agentId] }),
    ).toBe(zeroAddress)
  })

  it('records feedback in the reputation registry, but not from the agent owner', async () => {
    const { publicClient, wallet } = clientsFor(devnet)
    const { identityRegistry, reputationRegistry } = devnet.addressBook.erc8004
    const owner = wallet(4)
    const client = wallet(5)
    const hash = await owner.writeContract({
      address: identityRegistry,
      abi: identityRegistryAbi,
      functionName: 'register',
      args: ['ipfs://beta.json'],
    })
    const logs = (await publicClient.getTransactionReceipt({ hash })).logs
    const agentId = parseEventLogs({ abi: identityRegistryAbi, logs, eventName: 'Registered' })[0]!.args
      .agentId
    const reputation = { address: reputationRegistry, abi: reputationRegistryAbi } as const
    const feedback = [
      agentId,
      90n,
      0,
      'quality',
      '',
      'https://beta.example/api',
      'ipfs://feedback',
      `0x${'00'.repeat(32)}`,
    ] as const

    await expect(
      owner.writeContract({ ...reputation, functionName: 'giveFeedback', args: feedback }),
    ).rejects.toThrow(/SelfFeedback/)
    await client.writeContract({ ...reputation, functionName: 'giveFeedback', args: feedback })
    expect(
      await publicClient.readContract({
        ...reputation,
        functionName: 'getSummary',
        args: [agentId, [client.account.address], '', ''],
      }),
    ).toEqual([1n, 90n, 0])
    await client.writeContract({
      ...reputation,
      functionName: 'giveFeedback',
      args: [agentId, 705n, 1, 'quality', '', '', '', `0x${'00'.repeat(32)}`],
    })
    // 90 and 70.5 average to 80.25, at the precision most feedback used (a tie: the lower, 0 decimals).
    expect(
      await publicClient.readContract({
        ...reputation,
        functionName: 'getSummary',
        args: [agentId, [client.account.address], 'quality', ''],
      }),
    ).toEqual([2n, 80n, 0])
    await expect(
      publicClient.readContract({ ...reputation, functionName: 'getSummary', args: [agentId, [], '', ''] }),
    ).rejects.toThrow(/ClientsRequired/)
  })

  it('accepts a Safe as agent wallet through ERC-1271', async () => {
    const { publicClient, wallet } = clientsFor(devnet)
    const { safe, erc8004 } = devnet.addressBook
    const registry = { address: erc8004.identityRegistry, abi: identityRegistryAbi } as const
    const owner = wallet(6)
    const safeOwner = wallet(7)

    const initializer = encodeFunctionData({
      abi: safeAbi,
      functionName: 'setup',
      args: [
        [safeOwner.account.address],
        1n,
        zeroAddress,
        '0x',
        safe.fallbackHandler,
        zeroAddress,
        0n,
        zeroAddress,
      ],
    })
    const created = await owner.writeContract({
      address: safe.proxyFactory,
      abi: safeProxyFactoryAbi,
      functionName: 'createProxyWithNonce',
      args: [safe.singletonL2, initializer, 42n],
    })
    const createdLogs = (await publicClient.getTransactionReceipt({ hash: created })).logs
    const safeAddress = parseEventLogs({
      abi: safeProxyFactoryAbi,
      logs: createdLogs,
      eventName: 'ProxyCreation',
    })[0]!.args.proxy

    const registered = await owner.writeContract({
      ...registry,
      functionName: 'register',
      args: ['ipfs://gamma.json'],
    })
    const logs = (await publicClient.getTransactionReceipt({ hash: registered })).logs
    const agentId = parseEventLogs({ abi: identityRegistryAbi, logs, eventName: 'Registered' })[0]!.args
      .agentId
    const deadline = (await publicClient.getBlock()).timestamp + 60n

    // The registry's EIP-712 digest, which the Safe's fallback handler wraps in a SafeMessage.
    const digest = hashTypedData({
      domain: {
        name: 'ERC8004IdentityRegistry',
        version: '1',
        chainId: devnet.chain.id,
        verifyingContract: registry.address,
      },
      types: agentWalletSetTypes,
      primaryType: 'AgentWalletSet',
      message: { agentId, newWallet: safeAddress, owner: owner.account.address, deadline },
    })
    const signature = await safeOwner.account.signTypedData({
      domain: { chainId: devnet.chain.id, verifyingContract: safeAddress },
      types: { SafeMessage: [{ name: 'message', type: 'bytes' }] },
      primaryType: 'SafeMessage',
      message: { message: encodeAbiParameters([{ type: 'bytes32' }], [digest]) },
    })
    await owner.writeContract({
      ...registry,
      functionName: 'setAgentWallet',
      args: [agentId, safeAddress, deadline, signature],
    })
    expect(
      await publicClient.readContract({ ...registry, functionName: 'getAgentWallet', args: [agentId] }),
    ).toBe(safeAddress)
  })
})
