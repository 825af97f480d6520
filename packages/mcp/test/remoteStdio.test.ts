import { Writable } from 'node:stream'
import { createApp, createLogger, type RunningServer } from '@agentwallet/koa'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { remoteBackend } from '../src/index.js'
import {
  callTool,
  type Fixture,
  forbiddenToolName,
  freshAddress,
  startFixture,
} from './helpers/mcpFixture.js'
import { cliOutcome, type SpawnedMcp, spawnMcp } from './helpers/spawnMcp.js'

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

async function balanceOf(address: string): Promise<bigint> {
  return BigInt(
    (await fixture.devnet.provider.request({
      method: 'eth_getBalance',
      params: [address, 'latest'],
    })) as string,
  )
}

describe('agentwallet mcp over stdio (stock SDK client), remote backend against a real server', () => {
  it('lists the tools from the table: create_wallet and send among them, send destructive, none that approves or touches keys', async () => {
    const { tools } = await mcp.client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(['create_wallet', 'send', 'get_approval', 'list_wallets']))
    expect(names.filter((name) => forbiddenToolName.test(name))).toEqual([])
    const send = tools.find((tool) => tool.name === 'send')!
    expect(send.annotations).toMatchObject({
      destructiveHint: true,
      readOnlyHint: false,
      idempotentHint: true,
    })
    expect(send.outputSchema).toMatchObject({ type: 'object' })
    expect(tools.find((tool) => tool.name === 'get_balance')!.annotations).toMatchObject({
      readOnlyHint: true,
    })
    expect(mcp.stderr()).toContain('remote backend')
  })

  it('creates a wallet on the server, once per idempotency key', async () => {
    const created = await callTool(mcp.client, 'create_wallet', {
      agentName: 'stdio-bot',
      idempotencyKey: 'bot-1',
    })
    expect(created.isError).toBe(false)
    const retried = await callTool(mcp.client, 'create_wallet', {
      agentName: 'stdio-bot',
      idempotencyKey: 'bot-1',
    })
    expect(retried.data.wallet.id).toBe(created.data.wallet.id)
    const { wallets } = await fixture.aw.as(fixture.agent).listWallets()
    expect(
      wallets.filter((wallet) => wallet.agentName === 'stdio-bot').map((wallet) => wallet.address),
    ).toEqual([created.data.wallet.address])
  })

  it('sends, once per idempotency key, and the payment confirms on chain', async () => {
    const to = freshAddress()
    const payment = { wallet: fixture.wallet, to, value: '0.1', idempotencyKey: 'pay-1' }
    const sent = await callTool(mcp.client, 'send', payment)
    expect(sent.isError).toBe(false)
    expect(sent.data.hash).toMatch(/^0x[0-9a-f]{64}$/)
    // A retry under the same idempotency key answers the first send instead of paying twice.
    expect((await callTool(mcp.client, 'send', payment)).data.transaction.id).toBe(sent.data.transaction.id)
    const waited = await callTool(mcp.client, 'wait_for_transaction', {
      transaction: sent.data.hash,
      timeoutMs: 30_000,
    })
    expect(waited.data).toMatchObject({ status: 'confirmed', final: true })
    expect(await balanceOf(to)).toBe(parseEther('0.1'))
  })

  it('answers a send over max_per_tx with a tool error carrying policy_blocked and the rule', async () => {
    const blocked = await callTool(mcp.client, 'send', {
      wallet: fixture.wallet,
      to: freshAddress(),
      value: '2',
    })
    expect(blocked.isError).toBe(true)
    expect(blocked.data.error).toMatchObject({ code: 'policy_blocked', details: { ruleType: 'max_per_tx' } })
  })

  it('refuses malformed input with validation_failed before anything reaches the server', async () => {
    const bad = await callTool(mcp.client, 'send', { wallet: fixture.wallet, to: '0x1234', value: '0.1' })
    expect(bad.isError).toBe(true)
    expect(bad.data.error.code).toBe('validation_failed')
  })

  it('reports a paused send as pending approval; the curl it hands out approves with an approver key, never the agent’s', async () => {
    const to = freshAddress()
    const paused = await callTool(mcp.client, 'send', { wallet: fixture.wallet, to, value: '0.8' })
    expect(paused.isError).toBe(false)
    expect(paused.data).toMatchObject({
      status: 'pending_approval',
      hash: null,
      transaction: { status: 'pending_approval' },
    })
    const approvalId: string = paused.data.approval.id
    const { approveUrl, curl, message } = paused.data.howToApprove
    expect(approveUrl).toBe(`${server.url}/policy/approvals/${approvalId}/approve`)
    expect(curl).toBe(`curl -X POST -H "X-API-Key: $AGENTWALLET_APPROVER_KEY" ${approveUrl}`)
    expect(message).toContain(approvalId)
    expect((await callTool(mcp.client, 'get_approval', { approvalId })).data.approval).toMatchObject({
      id: approvalId,
      status: 'pending',
    })

    // The agent's own key cannot approve, even at the URL it was given.
    const self = await fetch(approveUrl, { method: 'POST', headers: { 'x-api-key': fixture.agentKey } })
    expect(self.status).toBe(403)
    expect(((await self.json()) as { error: { code: string } }).error.code).toBe('forbidden')

    const human = await fetch(approveUrl, { method: 'POST', headers: { 'x-api-key': approverKey } })
    expect(human.status).toBe(200)
    expect((await callTool(mcp.client, 'get_approval', { approvalId })).data.approval.status).toBe('approved')
    const waited = await callTool(mcp.client, 'wait_for_transaction', {
      transaction: paused.data.transaction.id,
      timeoutMs: 30_000,
    })
    expect(waited.data.status).toBe('confirmed')
    expect(await balanceOf(to)).toBe(parseEther('0.8'))
  })

  it('registers an identity and a .eth name through the server', async () => {
    const created = await callTool(mcp.client, 'register_identity', {
      wallet: fixture.wallet,
      agentName: 'remote-agent',
      agentType: 'assistant',
    })
    expect(created.isError).toBe(false)
    const { agentId } = created.data.identity
    expect((await callTool(mcp.client, 'get_identity', { agentId })).data.identity).toMatchObject({
      agentId,
      status: 'active',
    })
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
    const registrationId: string = started.data.registration.id
    await expect
      .poll(
        async () =>
          (await callTool(mcp.client, 'get_ens_registration', { registrationId })).data.registration.status,
        { timeout: 30_000, interval: 200 },
      )
      .toBe('registered')
    expect((await callTool(mcp.client, 'resolve_ens_name', { name: 'remote-agent.eth' })).data).toMatchObject(
      {
        address: fixture.wallet,
      },
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
    expect(paused.data).toMatchObject({ status: 'pending_approval', approval: { id: expect.any(String) } })
    expect(paused.data.howToApprove.approveUrl).toBe(
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
    const { wallet: second } = await agent.createWallet({ agentName: 'cosigner' })
    await fixture.devnet.faucet(second.address, parseEther('1'))
    const deployed = await agent.deploySafe({
      owners: [fixture.wallet, second.address],
      threshold: 2,
      wallet: second.address,
    })
    if (deployed.status !== 'deployed') throw new Error('the Safe did not deploy at once')
    const safe = deployed.address
    await fixture.devnet.faucet(safe, parseEther('1'))
    const to = freshAddress()
    const proposed = await callTool(mcp.client, 'propose_safe_transaction', {
      safe,
      wallet: fixture.wallet,
      to,
      value: '0.25',
    })
    expect(proposed.data).toMatchObject({ status: 'pending', confirmations: 1, threshold: 2 })
    const { safeTxHash } = proposed.data.proposal
    expect((await callTool(mcp.client, 'get_safe', { safe })).data.safe).toMatchObject({
      threshold: 2,
      pendingProposals: [{ safeTxHash }],
    })
    const executed = await callTool(mcp.client, 'confirm_safe_transaction', {
      safe,
      safeTxHash,
      wallet: second.address,
    })
    expect(executed.data).toMatchObject({ status: 'executed', confirmations: 2 })
    expect(await balanceOf(to)).toBe(parseEther('0.25'))
  })
})

describe('the remote backend acts only as an agent', () => {
  it('refuses an admin or approver key (forbidden) before any tool reads the tenant, and accepts an agent key', async () => {
    const { key: adminKey } = await fixture.aw.createApiKey({ name: 'ops', role: 'admin' })
    for (const apiKey of [adminKey, approverKey]) {
      const backend = remoteBackend({ url: server.url, apiKey })
      await expect(backend.ready()).rejects.toMatchObject({ code: 'forbidden' })
      await expect(backend.call('listWallets', {}, {})).rejects.toMatchObject({ code: 'forbidden' })
    }
    const agent = remoteBackend({ url: server.url, apiKey: fixture.agentKey })
    await expect(agent.ready()).resolves.toBeUndefined()
    await expect(agent.call('approve', { approvalId: 'apr_x' }, {})).rejects.toMatchObject({
      code: 'forbidden',
    })
  })

  it('`agentwallet mcp` exits 1 with an admin key instead of serving the tenant', async () => {
    const { key: adminKey } = await fixture.aw.createApiKey({ name: 'ops-cli', role: 'admin' })
    const failure = await cliOutcome(['mcp'], { AGENTWALLET_URL: server.url, AGENTWALLET_API_KEY: adminKey })
    expect(failure).toMatchObject({ code: 1 })
    expect(failure.stdout).toBe('')
  })
})
