import { createDevnet } from '@agentwallet/devnet'
import { parseEther, verifyTypedData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

let t: TestServer
let agentKey: string
let otherAgentKey: string
let wallet: string

beforeAll(async () => {
  t = await startTestServer({ devnet: await createDevnet({ ensMinCommitmentAge: 1 }) })
  agentKey = (await t.call('POST', '/api-keys', { body: { name: 'bot', role: 'agent' } })).body.key
  otherAgentKey = (await t.call('POST', '/api-keys', { body: { name: 'other', role: 'agent' } })).body.key
  wallet = (await t.call('POST', '/wallet/create', { key: agentKey, body: { agentName: 'bot' } })).body.wallet
    .address
  await t.devnet.faucet(wallet as `0x${string}`, parseEther('5'))
})
afterAll(async () => {
  await t?.close()
  await t?.devnet.close()
})

describe('identity over HTTP', () => {
  it('creates an identity, reads it back with a verifiable proof, lists it, and scopes it to the caller', async () => {
    const created = await t.call('POST', '/identity/create', {
      key: agentKey,
      body: { walletAddress: wallet, agentName: 'bot', agentType: 'trading', capabilities: ['swap'] },
    })
    expect(created.status).toBe(201)
    expect(created.body.identity).toMatchObject({
      walletAddress: wallet,
      agentName: 'bot',
      agentType: 'trading',
    })
    const { agentId } = created.body.identity

    const read = await t.call('GET', `/identity/${agentId}`, { key: agentKey })
    expect(read.status).toBe(200)
    const identity = read.body.identity
    expect(identity).toMatchObject({ agentId, status: 'active', walletBound: true, capabilities: ['swap'] })
    expect(identity.onChain.agentWallet).toBe(wallet)
    expect(identity.howToVerify.viem).toContain('verifyTypedData')
    const { domain, types, primaryType, message } = identity.proof.typedData
    expect(
      await verifyTypedData({
        address: wallet as `0x${string}`,
        domain,
        types,
        primaryType,
        signature: identity.proof.signature,
        message: {
          ...message,
          chainId: BigInt(message.chainId),
          agentId: BigInt(message.agentId),
          issuedAt: BigInt(message.issuedAt),
        },
      }),
    ).toBe(true)

    const list = await t.call('GET', '/identity/list', { key: agentKey })
    expect(list.body.count).toBe(1)
    expect(list.body.identities[0].agentId).toBe(agentId)
    const byWallet = await t.call('GET', `/identity/wallet/${wallet}`, { key: agentKey })
    expect(byWallet.status).toBe(200)
    expect(byWallet.body.identities.map((entry: { agentId: string }) => entry.agentId)).toEqual([agentId])

    // Another agent of the tenant sees none of it.
    expect((await t.call('GET', '/identity/list', { key: otherAgentKey })).body.count).toBe(0)
    expect((await t.call('GET', `/identity/${agentId}`, { key: otherAgentKey })).body.error.code).toBe(
      'not_found',
    )
    expect((await t.call('GET', `/identity/wallet/${wallet}`, { key: otherAgentKey })).status).toBe(404)
  })

  it('answers validation_failed and not_found with the envelope', async () => {
    const missing = await t.call('POST', '/identity/create', {
      key: agentKey,
      body: { walletAddress: wallet, agentName: 'x' },
    })
    expect(missing.status).toBe(400)
    expect(missing.body.error.code).toBe('validation_failed')
    const typo = await t.call('POST', '/identity/create', {
      key: agentKey,
      body: { walletAddress: wallet, agentName: 'x', agentType: 'y', capabilites: [] },
    })
    expect(typo.body.error.code).toBe('validation_failed')
    expect((await t.call('GET', '/identity/abc', { key: agentKey })).body.error.code).toBe(
      'validation_failed',
    )
    const unknown = await t.call('GET', '/identity/424242', { key: agentKey })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('not_found')
  })
})

describe('identity over HTTP under approval', () => {
  it('answers 202 with the paused registration, then registers once each step is approved', async () => {
    const approverKey = (await t.call('POST', '/api-keys', { body: { name: 'human', role: 'approver' } }))
      .body.key
    // Its own agent: the ENS tests below rely on the first agent having exactly one wallet.
    const pausedKey = (await t.call('POST', '/api-keys', { body: { name: 'paused', role: 'agent' } })).body
      .key
    const paused = (
      await t.call('POST', '/wallet/create', { key: pausedKey, body: { agentName: 'paused-bot' } })
    ).body.wallet.address
    await t.devnet.faucet(paused as `0x${string}`, parseEther('1'))
    expect(
      (
        await t.call('POST', '/policy/update', {
          body: { wallet: paused, rules: [{ type: 'require_approval', always: true }] },
        })
      ).status,
    ).toBe(200)

    const created = await t.call('POST', '/identity/create', {
      key: pausedKey,
      body: { walletAddress: paused, agentName: 'paused-bot', agentType: 'trading' },
    })
    expect(created.status).toBe(202)
    expect(created.body).toMatchObject({
      success: true,
      status: 'pending_approval',
      approval: { id: expect.any(String) },
      identity: { status: 'awaiting_approval', step: 'register', agentId: null, walletAddress: paused },
    })

    const registrationPath = `/identity/registration/${created.body.identity.id}`
    const polled = await t.call('GET', registrationPath, { key: pausedKey })
    expect(polled.body.registration).toMatchObject({ status: 'awaiting_approval', step: 'register' })
    expect((await t.call('GET', registrationPath, { key: agentKey })).status).toBe(404)

    // Every step goes through the policy: the mint, then setAgentURI (the minter is already the agent wallet).
    const approved: string[] = []
    await expect
      .poll(
        async () => {
          const pending = await t.call('GET', '/policy/approvals?status=pending', { key: approverKey })
          for (const approval of pending.body.approvals as { id: string }[]) {
            if (approved.includes(approval.id)) continue
            approved.push(approval.id)
            await t.call('POST', `/policy/approvals/${approval.id}/approve`, { key: approverKey })
          }
          return (await t.call('GET', `/identity/wallet/${paused}`, { key: pausedKey })).body.count
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe(1)
    expect(approved[0]).toBe(created.body.approval.id)
    expect(approved).toHaveLength(2)
    const done = (await t.call('GET', registrationPath, { key: pausedKey })).body.registration
    expect(done).toMatchObject({ status: 'registered', agentId: expect.any(String) })
  })
})

describe('ENS over HTTP', () => {
  it('checks, registers (202), lists, resolves, and then check says taken', async () => {
    const name = `http-agent-${Date.now().toString(36)}.eth`
    const check = await t.call('GET', `/ens/check/${name}`, { key: agentKey })
    expect(check.status).toBe(200)
    expect(check.body).toMatchObject({ success: true, name, available: true, valid: true })
    expect(check.body.price.wei).toMatch(/^[0-9]+$/)

    const started = await t.call('POST', '/ens/register', { key: agentKey, body: { name, setReverse: true } })
    expect(started.status).toBe(202)
    expect(started.body.status).toBe('committing')
    expect(JSON.stringify(started.body)).not.toContain('secret')
    const id = started.body.registration.id

    let registration = started.body.registration
    for (let i = 0; i < 200 && !['registered', 'failed'].includes(registration.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      registration = (await t.call('GET', `/ens/registration/${id}`, { key: agentKey })).body.registration
    }
    expect(registration.status).toBe('registered')

    const list = await t.call('GET', '/ens/list', { key: agentKey })
    expect(list.status).toBe(200)
    expect(list.body.names.map((entry: { name: string }) => entry.name)).toContain(name)
    expect((await t.call('GET', '/ens/list', { key: otherAgentKey })).body.count).toBe(0)

    const resolved = await t.call('GET', `/ens/${name}`, { key: agentKey })
    expect(resolved.status).toBe(200)
    expect(resolved.body).toMatchObject({ name, address: wallet })
    expect((await t.call('GET', `/ens/check/${name}`, { key: agentKey })).body.available).toBe(false)

    const reverse = await t.call('GET', `/ens/reverse/${wallet}`, { key: agentKey })
    expect(reverse.status).toBe(200)
    expect(reverse.body).toMatchObject({ address: wallet, name })
    const none = await t.call('GET', `/ens/reverse/${t.devnet.accounts[7]!.address}`, { key: agentKey })
    expect(none.status).toBe(404)
    expect(none.body.error.code).toBe('not_found')

    const again = await t.call('POST', '/ens/register', { key: agentKey, body: { name } })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('conflict')
  })

  it('refuses invalid names with validation_failed, and unknown names with not_found', async () => {
    for (const name of ['ab.eth', 'bad%20name.eth', encodeURIComponent('\u{1F468}\u200D.eth'), 'agent.com']) {
      const check = await t.call('GET', `/ens/check/${name}`, { key: agentKey })
      expect(check.status).toBe(400)
      expect(check.body.error.code).toBe('validation_failed')
    }
    const empty = await t.call('POST', '/ens/register', { key: agentKey, body: { name: '' } })
    expect(empty.body.error.code).toBe('validation_failed')
    const unknown = await t.call('GET', '/ens/nobody-has-this-name-yet.eth', { key: agentKey })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('not_found')
  })

  it('blocks a registration the policy refuses with 403 policy_blocked', async () => {
    const rich = (await t.call('POST', '/wallet/create', { body: { agentName: 'capped' } })).body.wallet
      .address
    await t.devnet.faucet(rich, parseEther('1'))
    const updated = await t.call('POST', '/policy/update', {
      body: { wallet: rich, rules: [{ type: 'max_per_tx', asset: 'native', max: '0.0001' }] },
    })
    expect(updated.status).toBe(200)
    const blocked = await t.call('POST', '/ens/register', {
      body: { name: `capped-${Date.now().toString(36)}.eth`, wallet: rich },
    })
    expect(blocked.status).toBe(403)
    expect(blocked.body.error.code).toBe('policy_blocked')
  })
})
