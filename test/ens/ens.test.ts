import type { AgentWallet, DomainEvent, EnsRegistration } from '@agentwallet/core'
import { memoryStorage } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { ensRegistryAbi } from '@agentwallet/devnet'
import { namehash } from 'viem'
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

useDevnetAgentWallet((started) => ({ devnet, aw } = started), {}, { ensMinCommitmentAge: 1 })

let counter = 0
/** A name no other test uses. */
const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}.eth`

/** Polls the registration until it leaves the active statuses. */
async function settled(agentWallet: AgentWallet, id: string, timeoutMs = 30_000): Promise<EnsRegistration> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { registration } = await agentWallet.getEnsRegistration({ registrationId: id })
    if (registration.status === 'registered' || registration.status === 'failed') return registration
    if (Date.now() > deadline) throw new Error(`registration ${id} still ${registration.status}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('ENS names', () => {
  it('registers by commit/reveal, resolves, lists, and check says taken', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'namer')
    const name = uniqueName('agent')
    const check = await aw.checkEnsName({ name })
    expect(check).toMatchObject({ name, valid: true, available: true, minCommitmentAge: 1, chain: 'devnet' })
    expect(BigInt(check.price.wei)).toBeGreaterThan(0n)

    const events: DomainEvent[] = []
    aw.bus.on('ens.registered', (event) => events.push(event))
    const started = await aw.registerEnsName({ name, wallet: wallet.address })
    expect(started.status).toBe('committing')
    expect(started).not.toHaveProperty('secret')
    expect(started.registration).not.toHaveProperty('secret')

    const done = await settled(aw, started.registration.id)
    expect(done.status).toBe('registered')
    expect(done.registerHash).toMatch(/^0x/)
    expect(done.expires).toBeGreaterThan(Math.floor(Date.now() / 1000))

    expect(await aw.resolveEnsName({ name })).toMatchObject({
      name,
      address: wallet.address,
      resolver: devnet.addressBook.ens.publicResolver,
    })
    const client = publicClientOf(devnet)
    expect(
      await client.readContract({
        address: devnet.addressBook.ens.registry,
        abi: ensRegistryAbi,
        functionName: 'owner',
        args: [namehash(name)],
      }),
    ).toBe(wallet.address)
    expect((await aw.checkEnsName({ name })).available).toBe(false)

    const listed = await aw.listEnsNames()
    expect(listed.names.find((entry) => entry.id === started.registration.id)).toMatchObject({
      name,
      status: 'registered',
      owner: wallet.address,
    })
    expect(events.some((event) => (event.data as { name?: string }).name === name)).toBe(true)

    // The steps went through the money path: commit (0) and register (the rent) as `ens` intents.
    const history = await aw.listHistory({ wallet: wallet.address, limit: 10 })
    expect(history.transactions.map((tx) => tx.kind)).toEqual(['ens', 'ens'])
    await expect(aw.registerEnsName({ name, wallet: wallet.address })).rejects.toMatchObject({
      code: 'conflict',
    })
  })

  it('sets the reverse name when asked', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'reverse')
    const name = uniqueName('primary')
    const started = await aw.registerEnsName({ name, wallet: wallet.address, setReverse: true })
    const done = await settled(aw, started.registration.id)
    expect(done.status).toBe('registered')
    expect(done.reverseHash).toMatch(/^0x/)
    expect(await aw.reverseEnsName({ address: wallet.address })).toEqual({
      address: wallet.address,
      name,
      chain: 'devnet',
    })
    await expect(aw.reverseEnsName({ address: freshAddress() })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('answers not_found for a name that does not resolve, never a stand-in address', async () => {
    await expect(aw.resolveEnsName({ name: uniqueName('nobody') })).rejects.toMatchObject({
      code: 'not_found',
    })
    await expect(aw.resolveEnsName({ name: 'sub.unknown-parent.eth' })).rejects.toMatchObject({
      code: 'not_found',
    })
  })

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['too short', 'ab.eth'],
    ['bad characters', 'a b c.eth'],
    ['underscore inside', 'ok_name.eth'],
    ['emoji that fails normalization', '\u{1F468}\u200D.eth'],
    ['control character', 'abc\u0000.eth'],
    ['empty label', 'foo..eth'],
    ['not .eth', 'agent.com'],
    ['subname', 'a.agent.eth'],
  ])('refuses an invalid name (%s) with validation_failed', async (_, name) => {
    await expect(aw.checkEnsName({ name })).rejects.toMatchObject({ code: 'validation_failed' })
    const { wallet } = await aw.createWallet({ agentName: 'invalid' })
    await expect(aw.registerEnsName({ name, wallet: wallet.address })).rejects.toMatchObject({
      code: 'validation_failed',
    })
  })

  it('normalizes names (ENSIP-15)', async () => {
    const check = await aw.checkEnsName({ name: 'MiXeD-Case-Agent.eth' })
    expect(check.name).toBe('mixed-case-agent.eth')
    expect(check.label).toBe('mixed-case-agent')
  })

  it('refuses a wallet that cannot pay rent plus gas', async () => {
    const wallet = await fundedWallet(aw, devnet, '0.001', 'poor')
    await expect(
      aw.registerEnsName({ name: uniqueName('poor'), wallet: wallet.address }),
    ).rejects.toMatchObject({
      code: 'insufficient_funds',
    })
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(0)
  })

  it('applies the policy: a rule on the rent or on the controller blocks registration', async () => {
    const rentCapped = await fundedWallet(aw, devnet, '1', 'rent-capped')
    await aw.updatePolicyRules({
      wallet: rentCapped.address,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '0.0001' }],
    })
    await expect(
      aw.registerEnsName({ name: uniqueName('capped'), wallet: rentCapped.address }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
    })
    expect((await aw.listHistory({ wallet: rentCapped.address })).count).toBe(0)

    const denied = await fundedWallet(aw, devnet, '1', 'denied')
    await aw.updatePolicyRules({
      wallet: denied.address,
      rules: [{ type: 'deny_recipients', addresses: [devnet.addressBook.ens.controller] }],
    })
    const name = uniqueName('denied')
    await expect(aw.registerEnsName({ name, wallet: denied.address })).rejects.toMatchObject({
      code: 'policy_blocked',
    })
    expect((await aw.checkEnsName({ name })).available).toBe(true)
  })

  it('resumes an unfinished registration after a restart', async () => {
    const storage = memoryStorage()
    const masterKey = new Uint8Array(32).fill(7)
    const first = await agentWalletOn(devnet, { storage, masterKey })
    const wallet = await fundedWallet(first, devnet, '1', 'restart')
    const name = uniqueName('restart')
    const started = await first.registerEnsName({ name, wallet: wallet.address })
    await first.close()
    const stopped = await storage.get('ens_names', started.registration.id)
    expect(['committing', 'committed', 'registering']).toContain(stopped?.status)

    const second = await agentWalletOn(devnet, { storage, masterKey })
    try {
      const done = await settled(second, started.registration.id)
      expect(done.status).toBe('registered')
      expect((await second.resolveEnsName({ name })).address).toBe(wallet.address)
    } finally {
      await second.close()
    }
  })

  it('reports chain_unavailable, never "available", when the RPC fails', async () => {
    const broken = await agentWalletOn(devnet, {
      chains: { devnet: { rpcUrl: 'http://127.0.0.1:9', chainId: 31337, contracts: devnet.addressBook } },
      track: false,
    })
    try {
      await expect(broken.checkEnsName({ name: 'reachable.eth' })).rejects.toMatchObject({
        code: 'chain_unavailable',
      })
      await expect(broken.resolveEnsName({ name: 'reachable.eth' })).rejects.toMatchObject({
        code: 'chain_unavailable',
      })
    } finally {
      await broken.close()
    }
  })
})
