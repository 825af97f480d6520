import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletTools, createMcpServer, inProcessBackend } from '../src/index.js'
import {
  approver,
  callTool,
  type Fixture,
  forbiddenToolName,
  freshAddress,
  startFixture,
} from './helpers/mcpFixture.js'

let fixture: Fixture
let client: Client

beforeAll(async () => {
  fixture = await startFixture()
  const backend = inProcessBackend({
    session: fixture.aw.as(fixture.agent),
    approvals: { serverUrl: 'http://wallets.example', dashboardUrl: 'https://dash.example/approvals/{id}' },
  })
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await createMcpServer(agentWalletTools(backend)).connect(serverSide)
  client = new Client({ name: 'test-agent', version: '1.0.0' })
  await client.connect(clientSide)
})
afterAll(async () => {
  await client?.close()
  await fixture?.close()
})

describe('MCP server, in-process backend', () => {
  it('lists the agent tools with JSON Schemas from the zod schemas, and none that approves, changes policy or touches keys', async () => {
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name).sort()
    expect(names).toEqual([
      'check_ens_name',
      'confirm_safe_transaction',
      'estimate_gas',
      'get_approval',
      'get_balance',
      'get_ens_registration',
      'get_identity',
      'get_prices',
      'get_safe',
      'get_swap',
      'get_transaction',
      'list_approvals',
      'list_identities',
      'list_wallets',
      'propose_safe_transaction',
      'quote_swap',
      'register_ens_name',
      'register_identity',
      'resolve_ens_name',
      'send',
      'stake',
      'swap',
    ])
    expect(names.filter((name) => forbiddenToolName.test(name))).toEqual([])
    const send = tools.find((tool) => tool.name === 'send')!
    expect(send.inputSchema).toMatchObject({
      type: 'object',
      required: ['from', 'to', 'value'],
      additionalProperties: false,
    })
    expect(send.annotations).toMatchObject({ readOnlyHint: false })
  })

  it('lists the wallets and reads a balance', async () => {
    const listed = await callTool(client, 'list_wallets')
    expect(listed).toMatchObject({
      isError: false,
      data: { count: 1, wallets: [{ address: fixture.wallet }] },
    })
    const balance = await callTool(client, 'get_balance', { address: fixture.wallet })
    expect(balance.isError).toBe(false)
    expect(balance.data).toMatchObject({ address: fixture.wallet, chain: 'devnet', eth: '10' })
  })

  it('sends within policy and reads the transaction until confirmed', async () => {
    const to = freshAddress()
    const sent = await callTool(client, 'send', { from: fixture.wallet, to, value: '0.1' })
    expect(sent.isError).toBe(false)
    expect(sent.data.status).toBe('submitted')
    expect(sent.data.hash).toMatch(/^0x[0-9a-f]{64}$/)
    await expect
      .poll(async () => (await callTool(client, 'get_transaction', { hash: sent.data.hash })).data.status)
      .toBe('confirmed')
    expect(await fixture.devnet.provider.request({ method: 'eth_getBalance', params: [to, 'latest'] })).toBe(
      '0x16345785d8a0000',
    )
  })

  it('estimates gas without sending', async () => {
    const estimate = await callTool(client, 'estimate_gas', {
      from: fixture.wallet,
      to: freshAddress(),
      value: '0.1',
    })
    expect(estimate.isError).toBe(false)
    // A plain transfer: 21,000 gas (the devnet's estimator may add one unit of headroom).
    expect(Number(estimate.data.gasLimit)).toBeGreaterThanOrEqual(21_000)
    expect(Number(estimate.data.gasLimit)).toBeLessThan(22_000)
    expect(estimate.data.maxCostWei).toMatch(/^\d+$/)
  })

  it('answers a send over max_per_tx with a tool error carrying policy_blocked and the rule', async () => {
    const blocked = await callTool(client, 'send', { from: fixture.wallet, to: freshAddress(), value: '2' })
    expect(blocked.isError).toBe(true)
    expect(blocked.data.error).toMatchObject({ code: 'policy_blocked', details: { ruleType: 'max_per_tx' } })
    expect(blocked.data.error.details.ruleId).toEqual(expect.any(String))
  })

  it('refuses malformed input with validation_failed', async () => {
    const bad = await callTool(client, 'send', { from: fixture.wallet, to: freshAddress(), value: '1e3' })
    expect(bad.isError).toBe(true)
    expect(bad.data.error.code).toBe('validation_failed')
    const typo = await callTool(client, 'send', {
      from: fixture.wallet,
      to: freshAddress(),
      value: '0.1',
      vaule: '9',
    })
    expect(typo.data.error.code).toBe('validation_failed')
  })

  it('pauses a send for a human, tells how to approve, and reads the approval until it went through', async () => {
    const to = freshAddress()
    const paused = await callTool(client, 'send', { from: fixture.wallet, to, value: '0.8' })
    expect(paused.isError).toBe(false)
    expect(paused.data).toMatchObject({
      status: 'pending_approval',
      hash: null,
      transaction: { status: 'pending_approval' },
    })
    const approvalId: string = paused.data.approval.id
    expect(paused.data.approval.howToApprove).toMatchObject({
      approveUrl: `http://wallets.example/policy/approvals/${approvalId}/approve`,
      dashboardUrl: `https://dash.example/approvals/${approvalId}`,
    })
    expect(paused.data.approval.howToApprove.curl).toContain(`-X POST`)

    const pending = await callTool(client, 'get_approval', { approvalId })
    expect(pending.data).toMatchObject({
      id: approvalId,
      status: 'pending',
      transactionId: paused.data.transaction.id,
    })
    const listed = await callTool(client, 'list_approvals', { status: 'pending' })
    expect(listed.data.approvals.map((approval: { id: string }) => approval.id)).toContain(approvalId)

    await fixture.aw.as(approver).approve(approvalId)
    const approved = await callTool(client, 'get_approval', { approvalId })
    expect(approved.data).toMatchObject({ id: approvalId, status: 'approved' })
    expect(approved.data.howToApprove).toBeUndefined()
    await expect
      .poll(
        async () =>
          (await callTool(client, 'get_transaction', { hash: paused.data.transaction.id })).data.status,
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

  it("does not let an agent see another agent's wallet", async () => {
    const other = await fixture.aw.createWallet({ agentName: 'someone-else' })
    const balance = await callTool(client, 'get_balance', { address: other.address })
    expect(balance.data.error.code).toBe('not_found')
  })

  it('refuses to build on a non-agent session', () => {
    expect(() => inProcessBackend({ session: fixture.aw.as(approver) })).toThrow(
      expect.objectContaining({ code: 'forbidden' }),
    )
  })

  it('registers an ERC-8004 identity for its wallet and reads it back from chain', async () => {
    const created = await callTool(client, 'register_identity', {
      walletAddress: fixture.wallet,
      agentName: 'mcp-agent',
      agentType: 'assistant',
      capabilities: ['pay'],
    })
    expect(created.isError).toBe(false)
    const agentId: string = created.data.agentId
    expect(agentId).toMatch(/^\d+$/)
    const read = await callTool(client, 'get_identity', { agentId })
    expect(read.data).toMatchObject({
      agentId,
      status: 'active',
      walletAddress: fixture.wallet,
      capabilities: ['pay'],
    })
    const listed = await callTool(client, 'list_identities')
    expect(listed.data.identities.map((identity: { agentId: string }) => identity.agentId)).toEqual([agentId])
    const bad = await callTool(client, 'get_identity', { agentId: '-1' })
    expect(bad.data.error.code).toBe('validation_failed')
  })

  it('checks, registers and resolves a .eth name', async () => {
    const checked = await callTool(client, 'check_ens_name', { name: 'mcp-agent.eth' })
    expect(checked.data).toMatchObject({ name: 'mcp-agent.eth', available: true })
    const invalid = await callTool(client, 'check_ens_name', { name: 'ab.eth' })
    expect(invalid.data.error.code).toBe('validation_failed')

    const started = await callTool(client, 'register_ens_name', {
      name: 'mcp-agent.eth',
      wallet: fixture.wallet,
    })
    expect(started.isError).toBe(false)
    const registrationId: string = started.data.id
    await expect
      .poll(async () => (await callTool(client, 'get_ens_registration', { registrationId })).data.status, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe('registered')
    const resolved = await callTool(client, 'resolve_ens_name', { name: 'mcp-agent.eth' })
    expect(resolved.data).toMatchObject({ name: 'mcp-agent.eth', address: fixture.wallet })
  })
})
