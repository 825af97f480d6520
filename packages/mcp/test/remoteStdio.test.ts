import { Writable } from 'node:stream'
import { createApp, createLogger, type RunningServer } from '@agentwallet/koa'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  callTool,
  type Fixture,
  forbiddenToolName,
  freshAddress,
  startFixture,
} from './helpers/mcpFixture.js'
import { type SpawnedMcp, spawnMcp } from './helpers/spawnMcp.js'

let fixture: Fixture
let server: RunningServer
let mcp: SpawnedMcp
let approverKey: string

beforeAll(async () => {
  fixture = await startFixture()
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() })
  server = await createApp({
    agentWallet: fixture.aw,
    logger: createLogger({ destination: quiet }),
    rateLimit: false,
  }).listen({ port: 0 })
  approverKey = (await fixture.aw.createApiKey({ name: 'human', role: 'approver' })).key
  mcp = await spawnMcp({ AGENTWALLET_URL: server.url, AGENTWALLET_API_KEY: fixture.agentKey })
}, 120_000)
afterAll(async () => {
  await mcp?.close()
  await server?.close()
  await fixture?.close()
})

describe('agentwallet mcp over stdio, remote backend against a real server', () => {
  it('lists the agent tools and none that approves, changes policy or touches keys', async () => {
    const { tools } = await mcp.client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'list_wallets',
        'get_balance',
        'send',
        'estimate_gas',
        'get_transaction',
        'get_approval',
        'list_approvals',
      ]),
    )
    expect(names.filter((name) => forbiddenToolName.test(name))).toEqual([])
    expect(mcp.stderr()).toContain('remote backend')
  })

  it("lists the agent's wallet and its balance through the server", async () => {
    const listed = await callTool(mcp.client, 'list_wallets')
    expect(listed.data).toMatchObject({ count: 1, wallets: [{ address: fixture.wallet }] })
    const balance = await callTool(mcp.client, 'get_balance', { address: fixture.wallet })
    expect(balance.data).toMatchObject({ address: fixture.wallet, chain: 'devnet' })
  })

  it('sends and reads the transaction until confirmed', async () => {
    const to = freshAddress()
    const sent = await callTool(mcp.client, 'send', {
      from: fixture.wallet,
      to,
      value: '0.1',
      idempotencyKey: 'pay-1',
    })
    expect(sent.isError).toBe(false)
    expect(sent.data.hash).toMatch(/^0x[0-9a-f]{64}$/)
    // A retry under the same idempotency key answers the first send instead of paying twice.
    const retried = await callTool(mcp.client, 'send', {
      from: fixture.wallet,
      to,
      value: '0.1',
      idempotencyKey: 'pay-1',
    })
    expect(retried.data.transaction.id).toBe(sent.data.transaction.id)
    await expect
      .poll(async () => (await callTool(mcp.client, 'get_transaction', { hash: sent.data.hash })).data.status)
      .toBe('confirmed')
    expect(
      BigInt(
        (await fixture.devnet.provider.request({
          method: 'eth_getBalance',
          params: [to, 'latest'],
        })) as string,
      ),
    ).toBe(parseEther('0.1'))
  })

  it('answers a send over max_per_tx with a tool error carrying policy_blocked and the rule', async () => {
    const blocked = await callTool(mcp.client, 'send', {
      from: fixture.wallet,
      to: freshAddress(),
      value: '2',
    })
    expect(blocked.isError).toBe(true)
    expect(blocked.data.error).toMatchObject({ code: 'policy_blocked', details: { ruleType: 'max_per_tx' } })
  })

  it('refuses malformed input with validation_failed before anything reaches the server', async () => {
    const bad = await callTool(mcp.client, 'send', { from: fixture.wallet, to: '0x1234', value: '0.1' })
    expect(bad.isError).toBe(true)
    expect(bad.data.error.code).toBe('validation_failed')
  })

  it('pauses for a human; the curl it hands out approves with an approver key; the agent reads the outcome', async () => {
    const to = freshAddress()
    const paused = await callTool(mcp.client, 'send', { from: fixture.wallet, to, value: '0.8' })
    expect(paused.data).toMatchObject({
      status: 'pending_approval',
      transaction: { status: 'pending_approval' },
    })
    const approvalId: string = paused.data.approval.id
    const { approveUrl, curl } = paused.data.approval.howToApprove
    expect(approveUrl).toBe(`${server.url}/policy/approvals/${approvalId}/approve`)
    expect(curl).toBe(`curl -X POST -H "X-API-Key: $AGENTWALLET_APPROVER_KEY" ${approveUrl}`)
    expect((await callTool(mcp.client, 'get_approval', { approvalId })).data).toMatchObject({
      id: approvalId,
      status: 'pending',
    })

    // The agent's own key cannot approve, even at the URL it was given.
    const self = await fetch(approveUrl, { method: 'POST', headers: { 'x-api-key': fixture.agentKey } })
    expect(self.status).toBe(403)
    expect(((await self.json()) as { error: { code: string } }).error.code).toBe('forbidden')

    const human = await fetch(approveUrl, { method: 'POST', headers: { 'x-api-key': approverKey } })
    expect(human.status).toBe(200)
    expect((await callTool(mcp.client, 'get_approval', { approvalId })).data).toMatchObject({
      id: approvalId,
      status: 'approved',
    })
    await expect
      .poll(
        async () =>
          (await callTool(mcp.client, 'get_transaction', { hash: paused.data.transaction.id })).data.status,
      )
      .toBe('confirmed')
    expect(
      BigInt(
        (await fixture.devnet.provider.request({
          method: 'eth_getBalance',
          params: [to, 'latest'],
        })) as string,
      ),
    ).toBe(parseEther('0.8'))
  })

  it('registers an identity and a .eth name through the server', async () => {
    const created = await callTool(mcp.client, 'register_identity', {
      walletAddress: fixture.wallet,
      agentName: 'remote-agent',
      agentType: 'assistant',
    })
    expect(created.isError).toBe(false)
    expect(
      (await callTool(mcp.client, 'get_identity', { agentId: created.data.agentId })).data,
    ).toMatchObject({ agentId: created.data.agentId, status: 'active' })
    expect((await callTool(mcp.client, 'list_identities')).data.count).toBe(1)

    expect((await callTool(mcp.client, 'check_ens_name', { name: 'remote-agent.eth' })).data).toMatchObject({
      available: true,
    })
    const started = await callTool(mcp.client, 'register_ens_name', {
      name: 'remote-agent.eth',
      wallet: fixture.wallet,
      idempotencyKey: 'ens-1',
    })
    expect(started.isError).toBe(false)
    await expect
      .poll(
        async () =>
          (await callTool(mcp.client, 'get_ens_registration', { registrationId: started.data.id })).data
            .status,
        { timeout: 30_000, interval: 200 },
      )
      .toBe('registered')
    expect((await callTool(mcp.client, 'resolve_ens_name', { name: 'remote-agent.eth' })).data).toMatchObject(
      { address: fixture.wallet },
    )
    const unknown = await callTool(mcp.client, 'resolve_ens_name', { name: 'nobody-here.eth' })
    expect(unknown.data.error.code).toBe('not_found')
  })

  it('quotes, swaps, stakes and reads prices through the server', async () => {
    const quote = await callTool(mcp.client, 'quote_swap', {
      fromToken: 'ETH',
      toToken: 'USDC',
      amount: '0.1',
    })
    expect(quote.data.quotes.length).toBeGreaterThanOrEqual(2)
    const swapped = await callTool(mcp.client, 'swap', {
      fromToken: 'ETH',
      toToken: 'USDC',
      amount: '0.1',
      wallet: fixture.wallet,
    })
    expect(swapped.data).toMatchObject({
      status: 'confirmed',
      transaction: { kind: 'swap', status: 'confirmed' },
    })
    const paused = await callTool(mcp.client, 'swap', {
      fromToken: 'ETH',
      toToken: 'DAI',
      amount: '0.6',
      wallet: fixture.wallet,
    })
    expect(paused.data).toMatchObject({ status: 'pending_approval', approval: { status: 'pending' } })
    expect(paused.data.approval.howToApprove.approveUrl).toBe(
      `${server.url}/policy/approvals/${paused.data.approval.id}/approve`,
    )
    const blocked = await callTool(mcp.client, 'stake', {
      protocol: 'lido',
      amount: '3',
      wallet: fixture.wallet,
    })
    expect(blocked.data.error.code).toBe('policy_blocked')
    const staked = await callTool(mcp.client, 'stake', {
      protocol: 'lido',
      amount: '0.1',
      wallet: fixture.wallet,
    })
    expect(staked.data).toMatchObject({ status: 'confirmed', protocol: 'lido' })
    const prices = await callTool(mcp.client, 'get_prices', { tokens: ['ETH', 'USDC'] })
    expect(prices.isError).toBe(false)
    expect(JSON.stringify(prices.data)).toContain('3000')
  })

  it('proposes and confirms a Safe transaction through the server', async () => {
    const agent = fixture.aw.as(fixture.agent)
    const second = await agent.createWallet({ agentName: 'cosigner' })
    await fixture.devnet.faucet(second.address, parseEther('1'))
    const deployed = await agent.deploySafe({
      owners: [fixture.wallet, second.address],
      threshold: 2,
      from: second.address,
    })
    const safe = deployed.address as `0x${string}`
    await fixture.devnet.faucet(safe, parseEther('1'))
    const to = freshAddress()
    const proposed = await callTool(mcp.client, 'propose_safe_transaction', {
      safe,
      from: fixture.wallet,
      to,
      value: '0.25',
    })
    expect(proposed.data).toMatchObject({ status: 'pending', confirmations: 1, threshold: 2 })
    const { safeTxHash } = proposed.data.proposal
    expect((await callTool(mcp.client, 'get_safe', { safe })).data).toMatchObject({
      threshold: 2,
      pendingProposals: [{ safeTxHash }],
    })
    const executed = await callTool(mcp.client, 'confirm_safe_transaction', {
      safe,
      safeTxHash,
      from: second.address,
    })
    expect(executed.data).toMatchObject({ status: 'executed', confirmations: 2 })
    expect(
      BigInt(
        (await fixture.devnet.provider.request({
          method: 'eth_getBalance',
          params: [to, 'latest'],
        })) as string,
      ),
    ).toBe(parseEther('0.25'))
  })
})
