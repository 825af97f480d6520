import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentTools, createMcpServer, inProcessBackend } from '../src/index.js'
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
  await createMcpServer(agentTools(backend)).connect(serverSide)
  client = new Client({ name: 'test-agent', version: '1.0.0' })
  await client.connect(clientSide)
})
afterAll(async () => {
  await client?.close()
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

describe('MCP server, in-process backend', () => {
  it('lists the tools with input and output schemas and annotations, none that approves, changes policy or touches keys', async () => {
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toEqual(
      expect.arrayContaining(['create_wallet', 'send', 'get_approval', 'wait_for_transaction']),
    )
    expect(names.filter((name) => forbiddenToolName.test(name))).toEqual([])
    const send = tools.find((tool) => tool.name === 'send')!
    expect(send.inputSchema).toMatchObject({
      type: 'object',
      required: ['wallet', 'to', 'value'],
      additionalProperties: false,
    })
    expect(send.outputSchema).toMatchObject({ type: 'object' })
    expect(send.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true })
    for (const tool of tools) expect(tool.outputSchema?.type).toBe('object')
  })

  it('creates a wallet the agent then owns', async () => {
    const created = await callTool(client, 'create_wallet', {
      agentName: 'made-by-tool',
      idempotencyKey: 'w-1',
    })
    expect(created.isError).toBe(false)
    const address = created.data.wallet.address
    // A retry under the same key answers the same wallet instead of making a second one.
    expect(
      (await callTool(client, 'create_wallet', { agentName: 'made-by-tool', idempotencyKey: 'w-1' })).data,
    ).toEqual(created.data)
    const { wallets } = await fixture.aw.as(fixture.agent).listWallets()
    expect(
      wallets.filter((wallet) => wallet.agentName === 'made-by-tool').map((wallet) => wallet.address),
    ).toEqual([address])
  })

  it('lists the wallets and reads a balance', async () => {
    const listed = await callTool(client, 'list_wallets')
    expect(listed.isError).toBe(false)
    expect(listed.data.wallets.map((wallet: { address: string }) => wallet.address)).toContain(fixture.wallet)
    const balance = await callTool(client, 'get_balance', { wallet: fixture.wallet })
    expect(balance.isError).toBe(false)
    expect(balance.data).toMatchObject({ address: fixture.wallet, chain: 'devnet', eth: '10' })
  })

  it('sends within policy and waits until confirmed', async () => {
    const to = freshAddress()
    const sent = await callTool(client, 'send', { wallet: fixture.wallet, to, value: '0.1' })
    expect(sent.isError).toBe(false)
    expect(sent.data.status).toBe('submitted')
    expect(sent.data.hash).toMatch(/^0x[0-9a-f]{64}$/)
    const waited = await callTool(client, 'wait_for_transaction', {
      transaction: sent.data.hash,
      timeoutMs: 30_000,
    })
    expect(waited.data).toMatchObject({ status: 'confirmed', final: true })
    expect((await callTool(client, 'get_transaction', { transaction: sent.data.hash })).data.status).toBe(
      'confirmed',
    )
    expect(await balanceOf(to)).toBe(parseEther('0.1'))
  })

  it('estimates gas without sending', async () => {
    const estimate = await callTool(client, 'estimate_gas', {
      wallet: fixture.wallet,
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
    const blocked = await callTool(client, 'send', { wallet: fixture.wallet, to: freshAddress(), value: '2' })
    expect(blocked.isError).toBe(true)
    expect(blocked.data.error).toMatchObject({ code: 'policy_blocked', details: { ruleType: 'max_per_tx' } })
    expect(blocked.data.error.details.ruleId).toEqual(expect.any(String))
  })

  it('refuses malformed input with validation_failed', async () => {
    const bad = await callTool(client, 'send', { wallet: fixture.wallet, to: freshAddress(), value: '1e3' })
    expect(bad.isError).toBe(true)
    expect(bad.data.error.code).toBe('validation_failed')
    const typo = await callTool(client, 'send', {
      wallet: fixture.wallet,
      to: freshAddress(),
      value: '0.1',
      vaule: '9',
    })
    expect(typo.data.error.code).toBe('validation_failed')
  })

  it('pauses a send for a human, tells how to approve, and reads the approval until it went through', async () => {
    const to = freshAddress()
    const paused = await callTool(client, 'send', { wallet: fixture.wallet, to, value: '0.8' })
    expect(paused.isError).toBe(false)
    expect(paused.data).toMatchObject({
      status: 'pending_approval',
      hash: null,
      transaction: { status: 'pending_approval' },
    })
    const approvalId: string = paused.data.approval.id
    // It leads with what the send does, from its effects (issue #42).
    expect(paused.data.approval.headline).toBe(`Send 0.8 ETH to ${to}`)
    expect(paused.data.howToApprove.message).toMatch(
      new RegExp(`^Waiting for a human to allow this: Send 0\\.8 ETH to ${to}\\. Someone with an approver`),
    )
    expect(paused.data.howToApprove).toMatchObject({
      approveUrl: `http://wallets.example/policy/approvals/${approvalId}/approve`,
      dashboardUrl: `https://dash.example/approvals/${approvalId}`,
    })
    expect(paused.data.howToApprove.curl).toContain(`-X POST`)

    const pending = await callTool(client, 'get_approval', { approvalId })
    expect(pending.data).toMatchObject({
      approval: { id: approvalId, status: 'pending', transactionId: paused.data.transaction.id },
      howToApprove: { approveUrl: paused.data.howToApprove.approveUrl },
    })
    expect(pending.data.approval.headline).toBe(`Send 0.8 ETH to ${to}`)
    expect(pending.data.howToApprove.message).toBe(paused.data.howToApprove.message)
    const listed = await callTool(client, 'list_approvals', { status: 'pending' })
    expect(listed.data.approvals.map((approval: { id: string }) => approval.id)).toContain(approvalId)

    await fixture.aw.as(approver).approve({ approvalId })
    const approved = await callTool(client, 'get_approval', { approvalId })
    expect(approved.data.approval).toMatchObject({ id: approvalId, status: 'approved' })
    expect(approved.data.howToApprove).toBeUndefined()
    const waited = await callTool(client, 'wait_for_transaction', {
      transaction: paused.data.transaction.id,
      timeoutMs: 30_000,
    })
    expect(waited.data.status).toBe('confirmed')
    expect(await balanceOf(to)).toBe(parseEther('0.8'))
  })

  it("does not let an agent see another agent's wallet", async () => {
    const { wallet: other } = await fixture.aw.createWallet({ agentName: 'someone-else' })
    const balance = await callTool(client, 'get_balance', { wallet: other.address })
    expect(balance.data.error.code).toBe('not_found')
  })

  it('refuses to build on a non-agent session, and reaches no operation that is not a tool', async () => {
    expect(() => inProcessBackend({ session: fixture.aw.as(approver) })).toThrow(
      expect.objectContaining({ code: 'forbidden' }),
    )
    const backend = inProcessBackend({ session: fixture.aw.as(fixture.agent) })
    await expect(backend.call('approve', { approvalId: 'apr_x' }, {})).rejects.toMatchObject({
      code: 'forbidden',
    })
    await expect(backend.call('updatePolicyRules', { rules: [] }, {})).rejects.toMatchObject({
      code: 'forbidden',
    })
  })

  it('registers an ERC-8004 identity for its wallet and reads it back from chain', async () => {
    const created = await callTool(client, 'register_identity', {
      wallet: fixture.wallet,
      agentName: 'mcp-agent',
      agentType: 'assistant',
      capabilities: ['pay'],
    })
    expect(created.isError).toBe(false)
    expect(created.data.status).toBe('registered')
    const agentId: string = created.data.identity.agentId
    expect(agentId).toMatch(/^\d+$/)
    const read = await callTool(client, 'get_identity', { agentId })
    expect(read.data.identity).toMatchObject({
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
    const registrationId: string = started.data.registration.id
    await expect
      .poll(
        async () =>
          (await callTool(client, 'get_ens_registration', { registrationId })).data.registration.status,
        { timeout: 30_000, interval: 200 },
      )
      .toBe('registered')
    const resolved = await callTool(client, 'resolve_ens_name', { name: 'mcp-agent.eth' })
    expect(resolved.data).toMatchObject({ name: 'mcp-agent.eth', address: fixture.wallet })
  })
})
