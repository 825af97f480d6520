import { type AgentWallet, type DomainEvent, memoryStorage, newSafeTx, safeTxHash } from '@agentwallet/core'
import { type Devnet, safeAbi } from '@agentwallet/devnet'
import { type Address, type Hex, hashTypedData, parseEther, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  publicClientOf,
  startDevnet,
} from '../helpers/devnetAgentWallet.js'

const masterKey = '22'.repeat(32)
const safeTxTypes = {
  SafeTx: [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
    { name: 'operation', type: 'uint8' },
    { name: 'safeTxGas', type: 'uint256' },
    { name: 'baseGas', type: 'uint256' },
    { name: 'gasPrice', type: 'uint256' },
    { name: 'gasToken', type: 'address' },
    { name: 'refundReceiver', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const

let devnet: Devnet
let aw: AgentWallet
const storage = memoryStorage()
const outsider = privateKeyToAccount(generatePrivateKey())
let owner1: Address
let owner2: Address
let safe: Address

beforeAll(async () => {
  devnet = await startDevnet()
  aw = await agentWalletOn(devnet, { storage, masterKey })
  owner1 = (await fundedWallet(aw, devnet, '10', 'owner-1')).address
  owner2 = (await fundedWallet(aw, devnet, '10', 'owner-2')).address
})
afterAll(async () => {
  await aw?.close()
  await devnet?.close()
})

/** The SafeTx a proposal of `value` wei to `to` at `nonce` stands for, with Safe's defaults. */
function safeTx(to: Address, value: bigint, nonce: bigint) {
  return {
    to,
    value,
    data: '0x' as Hex,
    operation: 0,
    safeTxGas: 0n,
    baseGas: 0n,
    gasPrice: 0n,
    gasToken: zeroAddress,
    refundReceiver: zeroAddress,
    nonce,
  }
}

describe('Safe multisig', () => {
  it('validates a deployment: threshold within owners, owners unique and valid', async () => {
    const owners = [owner1, owner2]
    for (const body of [
      { owners, threshold: 0 },
      { owners, threshold: 3 },
      { owners: [owner1, owner1], threshold: 1 },
      { owners: [owner1, '0x1234'], threshold: 1 },
      { owners: [], threshold: 1 },
    ]) {
      await expect(aw.deploySafe({ ...body, wallet: owner1 })).rejects.toMatchObject({
        code: 'validation_failed',
      })
    }
  })

  it('deploys a 2-of-3 Safe (two managed owners and an outside key) paid by a managed wallet', async () => {
    const client = publicClientOf(devnet)
    const deployed = await aw.deploySafe({
      owners: [owner1, owner2, outsider.address],
      threshold: 2,
      wallet: owner1,
    })
    expect(deployed.status).toBe('deployed')
    if (deployed.status !== 'deployed') throw new Error('expected the Safe to be deployed')
    safe = deployed.address
    expect(deployed.transaction).toMatchObject({
      kind: 'multisig',
      status: 'confirmed',
      from: owner1,
      to: devnet.addressBook.safe.proxyFactory,
    })
    expect((await client.getTransactionReceipt({ hash: deployed.transaction.hash! })).status).toBe('success')
    expect(await client.readContract({ address: safe, abi: safeAbi, functionName: 'getThreshold' })).toBe(2n)
    const owners = await client.readContract({ address: safe, abi: safeAbi, functionName: 'getOwners' })
    expect([...owners].sort()).toEqual([owner1, owner2, outsider.address].sort())
    const { safe: view } = await aw.getSafe({ safe })
    expect(view).toMatchObject({
      address: safe,
      threshold: 2,
      nonce: '0',
      managed: true,
      pendingProposals: [],
    })
    await devnet.faucet(safe, parseEther('5'))
  })

  it('proposes with the Safe-exact hash, refuses non-owners, and executes only at threshold', async () => {
    const client = publicClientOf(devnet)
    const recipient = freshAddress()
    const events: DomainEvent[] = []
    const listener = (event: DomainEvent) => events.push(event)
    aw.bus.on('*', listener)

    const proposed = await aw.proposeSafeTransaction({ safe, wallet: owner1, to: recipient, value: '0.25' })
    expect(proposed).toMatchObject({ status: 'pending', confirmations: 1, threshold: 2 })
    const hash = proposed.proposal.safeTxHash as Hex
    const tx = safeTx(recipient, parseEther('0.25'), 0n)
    expect(hash).toBe(
      hashTypedData({
        domain: { chainId: 31337, verifyingContract: safe },
        types: safeTxTypes,
        primaryType: 'SafeTx',
        message: tx,
      }),
    )
    expect(hash).toBe(
      await client.readContract({
        address: safe,
        abi: safeAbi,
        functionName: 'getTransactionHash',
        args: [
          tx.to,
          tx.value,
          tx.data,
          tx.operation,
          tx.safeTxGas,
          tx.baseGas,
          tx.gasPrice,
          tx.gasToken,
          tx.refundReceiver,
          tx.nonce,
        ],
      }),
    )

    // Under threshold nothing is sent: confirming again as the proposer adds no second signature.
    const again = await aw.confirmSafeTransaction({ safe, safeTxHash: hash, wallet: owner1 })
    expect(again).toMatchObject({ status: 'pending', confirmations: 1, transaction: null })
    expect(await client.getBalance({ address: recipient })).toBe(0n)
    expect(await client.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })).toBe(0n)

    // Non-owners: a managed wallet that is not an owner, and an outside key that is not one.
    const stranger = await fundedWallet(aw, devnet, '1', 'stranger')
    await expect(
      aw.confirmSafeTransaction({ safe, safeTxHash: hash, wallet: stranger.address }),
    ).rejects.toMatchObject({
      code: 'forbidden',
      details: { reason: 'not_owner' },
    })
    const notOwner = privateKeyToAccount(generatePrivateKey())
    const foreign = await notOwner.sign({ hash })
    await expect(
      aw.confirmSafeTransaction({ safe, safeTxHash: hash, signature: foreign }),
    ).rejects.toMatchObject({
      code: 'forbidden',
      details: { reason: 'not_owner', signer: notOwner.address },
    })
    await expect(
      aw.proposeSafeTransaction({ safe, wallet: stranger.address, to: recipient, value: '1' }),
    ).rejects.toMatchObject({
      code: 'forbidden',
    })
    expect((await aw.getSafe({ safe })).safe.pendingProposals.map((p) => p.confirmations.length)).toEqual([1])

    // The outside owner's EIP-712 signature reaches the threshold: execTransaction goes out and is mined.
    const signature = await outsider.signTypedData({
      domain: { chainId: 31337, verifyingContract: safe },
      types: safeTxTypes,
      primaryType: 'SafeTx',
      message: tx,
    })
    const executed = await aw.confirmSafeTransaction({ safe, safeTxHash: hash, signature })
    expect(executed).toMatchObject({ status: 'executed', confirmations: 2 })
    expect(executed.transaction).toMatchObject({
      kind: 'multisig',
      status: 'confirmed',
      to: recipient,
      via: safe,
      amountRaw: parseEther('0.25').toString(),
    })
    expect(executed.proposal.executionHash).toBe(executed.transaction?.hash)
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.25'))
    expect(await client.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })).toBe(1n)
    expect((await aw.getSafe({ safe })).safe.pendingProposals).toEqual([])
    await expect(aw.confirmSafeTransaction({ safe, safeTxHash: hash, wallet: owner2 })).rejects.toMatchObject(
      {
        code: 'conflict',
      },
    )

    aw.bus.off('*', listener)
    expect(events.find((event) => event.type === 'multisig.proposed')?.data).toMatchObject({
      safeTxHash: hash,
      proposer: owner1,
      value: parseEther('0.25').toString(),
    })
    expect(events.find((event) => event.type === 'multisig.executed')?.data).toMatchObject({
      safeTxHash: hash,
      status: 'executed',
      success: true,
    })
  })

  it('keeps proposals across a restart and executes with a managed owner confirmation', async () => {
    const client = publicClientOf(devnet)
    const recipient = freshAddress()
    const proposed = await aw.proposeSafeTransaction({ safe, wallet: owner2, to: recipient, value: '1' })
    expect(
      safeTxHash(
        31337,
        safe,
        newSafeTx({ to: recipient, value: parseEther('1'), data: '0x', operation: 0, nonce: 1n }),
      ),
    ).toBe(proposed.proposal.safeTxHash)

    const restarted = await agentWalletOn(devnet, {
      storage: memoryStorage({ snapshot: storage.snapshot() }),
      masterKey,
    })
    try {
      const { safe: view } = await restarted.getSafe({ safe })
      expect(view.nonce).toBe('1')
      expect(view.pendingProposals).toHaveLength(1)
      expect(view.pendingProposals[0]).toMatchObject({
        safeTxHash: proposed.proposal.safeTxHash,
        status: 'pending',
        nonce: '1',
        value: '1',
      })

      const executed = await restarted.confirmSafeTransaction({
        safe,
        safeTxHash: proposed.proposal.safeTxHash,
        wallet: owner1,
      })
      expect(executed.status).toBe('executed')
      expect(executed.transaction?.from).toBe(owner1)
      expect(await client.getBalance({ address: recipient })).toBe(parseEther('1'))
    } finally {
      await restarted.close()
    }
  })

  it('refuses an unknown proposal and an address that is not a Safe', async () => {
    await expect(
      aw.confirmSafeTransaction({ safe, safeTxHash: `0x${'ab'.repeat(32)}`, wallet: owner1 }),
    ).rejects.toMatchObject({ code: 'not_found' })
    await expect(aw.getSafe({ safe: freshAddress() })).rejects.toMatchObject({ code: 'not_found' })
    await expect(
      aw.confirmSafeTransaction({
        safe,
        safeTxHash: `0x${'ab'.repeat(32)}`,
        wallet: owner1,
        signature: '0x',
      } as never),
    ).rejects.toMatchObject({ code: 'validation_failed' })
  })
})
