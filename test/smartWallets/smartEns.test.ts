import { type AgentWallet, type EnsRegistration, relayerAccount } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { ensPublicResolverAbi, ensRegistryAbi } from '@agentwallet/devnet'
import { type Address, formatEther, namehash, type PublicClient, parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { eventsOf, freshAddress, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// ENS names for a smart wallet (docs/smart-accounts.md, "Identity and ENS"): commit, register (with the
// address record) and the reverse record each go out as one user operation of the wallet, through the
// same money path, policy and step machine as an EOA's.

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {}, { ensMinCommitmentAge: 1 })

let counter = 0
const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}.eth`

async function settled(id: string, timeoutMs = 60_000): Promise<EnsRegistration> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { registration } = await aw.getEnsRegistration({ registrationId: id })
    if (registration.status === 'registered' || registration.status === 'failed') return registration
    if (Date.now() > deadline) throw new Error(`registration ${id} still ${registration.status}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function smartWallet(name: string, eth: string) {
  const { wallet } = await aw.createWallet({ agentName: name, kind: 'smart' })
  await devnet.faucet(wallet.address, parseEther(eth))
  return wallet
}

/** What the chain's registry and resolver say of `name`, and the reverse record of `address`. */
async function onChain(name: string, address: Address) {
  const { registry } = devnet.addressBook.ens
  const node = namehash(name)
  const reverseNode = namehash(`${address.slice(2).toLowerCase()}.addr.reverse`)
  const ens = { address: registry, abi: ensRegistryAbi } as const
  const [owner, resolver, reverseResolver] = await Promise.all([
    client.readContract({ ...ens, functionName: 'owner', args: [node] }),
    client.readContract({ ...ens, functionName: 'resolver', args: [node] }),
    client.readContract({ ...ens, functionName: 'resolver', args: [reverseNode] }),
  ])
  const addr = await client.readContract({
    address: resolver,
    abi: ensPublicResolverAbi,
    functionName: 'addr',
    args: [node],
  })
  const reverse = await client.readContract({
    address: reverseResolver,
    abi: ensPublicResolverAbi,
    functionName: 'name',
    args: [reverseNode],
  })
  return { owner, addr, reverse }
}

beforeAll(async () => {
  client = publicClientOf(devnet)
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
})

describe('a smart wallet’s ENS name', () => {
  it('registers by commit/reveal as the smart account, with its address and reverse records; the answer replays', async () => {
    const wallet = await smartWallet('smart-namer', '1')
    const name = uniqueName('smart')
    const events = eventsOf(aw, 'ens.registered')
    const before = await client.getBalance({ address: wallet.address })
    const rent = BigInt((await aw.checkEnsName({ name })).price.wei)

    const parameters = { name, wallet: wallet.address, setReverse: true }
    const started = await aw.registerEnsName(parameters, { idempotencyKey: 'smart-ens-1' })
    expect(started.status).toBe('committing')
    const done = await settled(started.registration.id)
    expect(done).toMatchObject({ status: 'registered', owner: wallet.address })
    expect(done.registerHash).toMatch(/^0x/)
    expect(done.reverseHash).toMatch(/^0x/)

    expect(await onChain(name, wallet.address)).toEqual({
      owner: wallet.address,
      addr: wallet.address,
      reverse: name,
    })
    expect(await aw.resolveEnsName({ name })).toMatchObject({ name, address: wallet.address })
    expect(await aw.reverseEnsName({ address: wallet.address })).toMatchObject({
      address: wallet.address,
      name,
    })
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ name, owner: wallet.address }),
    ])
    // The wallet paid the rent (the controller refunded the buffer to it); gas came from its session deposit.
    expect(before - (await client.getBalance({ address: wallet.address }))).toBeGreaterThanOrEqual(rent)

    // Commit, register (the rent) and reverse: three `ens` intents, each carried by a user operation.
    const history = await aw.listHistory({ wallet: wallet.address, limit: 10 })
    expect(history.transactions.map((tx) => [tx.kind, tx.status, tx.amount])).toEqual([
      ['ens', 'confirmed', '0'],
      ['ens', 'confirmed', formatEther(rent)],
      ['ens', 'confirmed', '0'],
    ])
    for (const tx of history.transactions) {
      expect((await aw.context.storage.get('transactions', tx.id))?.userOperation?.sender).toBe(
        wallet.smart?.sessionKey,
      )
    }

    const replay = await aw.registerEnsName(parameters, { idempotencyKey: 'smart-ens-1' })
    expect(replay.registration.id).toBe(started.registration.id)
    expect((await aw.listEnsNames()).names.filter((entry) => entry.name === name)).toHaveLength(1)
    await expect(aw.registerEnsName({ name, wallet: wallet.address })).rejects.toMatchObject({
      code: 'conflict',
    })
  })

  it('the policy counts the rent: over a cap it is blocked before anything is sent; a budget spent by it holds', async () => {
    const capped = await smartWallet('smart-capped', '1')
    await aw.updatePolicyRules({
      wallet: capped.address,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '0.0001' }],
    })
    await expect(
      aw.registerEnsName({ name: uniqueName('capped'), wallet: capped.address }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { step: 'register' },
    })
    expect((await aw.listHistory({ wallet: capped.address })).count).toBe(0)

    const budgeted = await smartWallet('smart-budget', '1')
    const name = uniqueName('budget')
    const rent = BigInt((await aw.checkEnsName({ name })).price.wei)
    await aw.updatePolicyRules({
      wallet: budgeted.address,
      rules: [{ type: 'spend_limit', asset: 'native', max: formatEther(rent * 2n), window: '24h' }],
    })
    const started = await aw.registerEnsName({ name, wallet: budgeted.address })
    expect((await settled(started.registration.id)).status).toBe('registered')
    // The rent is in the window: what is left of the budget is less than one more rent.
    await expect(
      aw.send({ wallet: budgeted.address, to: freshAddress(), value: formatEther((rent * 12n) / 10n) }),
    ).rejects.toMatchObject({ code: 'policy_blocked' })
    const within = await aw.send({
      wallet: budgeted.address,
      to: freshAddress(),
      value: formatEther(rent / 2n),
    })
    expect((await aw.waitForTransaction({ transaction: within.transaction.id })).transaction.status).toBe(
      'confirmed',
    )
  })
})
