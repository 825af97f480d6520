import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentTools, createMcpServer, inProcessBackend } from '../src/index.js'
import { approver, callTool, type Fixture, freshAddress, startFixture } from './helpers/mcpFixture.js'

let fixture: Fixture
let client: Client

beforeAll(async () => {
  fixture = await startFixture()
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await createMcpServer(agentTools(inProcessBackend({ session: fixture.aw.as(fixture.agent) }))).connect(
    serverSide,
  )
  client = new Client({ name: 'test-agent', version: '1.0.0' })
  await client.connect(clientSide)
})
afterAll(async () => {
  await client?.close()
  await fixture?.close()
})

describe('DeFi tools, in-process', () => {
  it('quotes, then swaps ETH for USDC at the best venue', async () => {
    const quote = await callTool(client, 'quote_swap', { fromToken: 'ETH', toToken: 'USDC', amount: '0.1' })
    expect(quote.isError).toBe(false)
    expect(quote.data.quotes.length).toBeGreaterThanOrEqual(2)
    const swapped = await callTool(client, 'swap', {
      fromToken: 'ETH',
      toToken: 'USDC',
      amount: '0.1',
      wallet: fixture.wallet,
    })
    expect(swapped.isError).toBe(false)
    expect(swapped.data).toMatchObject({
      status: 'confirmed',
      wallet: fixture.wallet,
      transaction: { status: 'confirmed', kind: 'swap' },
    })
    expect(Number(swapped.data.amountOut)).toBeGreaterThan(0)
    expect(swapped.data.hash).toBe(swapped.data.transaction.hash)
  })

  it('blocks a swap over max_per_tx and pauses one over the approval threshold', async () => {
    const blocked = await callTool(client, 'swap', {
      fromToken: 'ETH',
      toToken: 'USDC',
      amount: '2',
      wallet: fixture.wallet,
    })
    expect(blocked.data.error).toMatchObject({ code: 'policy_blocked', details: { ruleType: 'max_per_tx' } })
    const paused = await callTool(client, 'swap', {
      fromToken: 'ETH',
      toToken: 'DAI',
      amount: '0.6',
      wallet: fixture.wallet,
    })
    expect(paused.data).toMatchObject({ status: 'pending_approval', approval: { id: expect.any(String) } })
    expect(paused.data.howToApprove.message).toContain(paused.data.approval.id)

    // The paused swap is tracked: get_swap follows it to what it received once a human approves.
    const tracked = await callTool(client, 'get_swap', { swapId: paused.data.swapId })
    expect(tracked.data.swap).toMatchObject({
      status: 'awaiting_approval',
      step: 'swap',
      approvalId: paused.data.approval.id,
    })
    await fixture.aw.as(approver).approve({ approvalId: paused.data.approval.id })
    await expect
      .poll(
        async () => (await callTool(client, 'get_swap', { swapId: paused.data.swapId })).data.swap.status,
        {
          timeout: 20_000,
        },
      )
      .toBe('confirmed')
    const done = await callTool(client, 'get_swap', { swapId: paused.data.swapId })
    expect(BigInt(done.data.swap.amountOutRaw)).toBeGreaterThan(0n)
    const unknown = await callTool(client, 'get_swap', { swapId: 'swp_nope' })
    expect(unknown.data.error.code).toBe('not_found')
  })

  it('stakes with lido and reads prices', async () => {
    const staked = await callTool(client, 'stake', {
      protocol: 'lido',
      amount: '0.1',
      wallet: fixture.wallet,
    })
    expect(staked.data).toMatchObject({
      status: 'confirmed',
      protocol: 'lido',
      transaction: { status: 'confirmed' },
    })
    const unknown = await callTool(client, 'stake', {
      protocol: 'nope',
      amount: '0.1',
      wallet: fixture.wallet,
    })
    expect(unknown.data.error.code).toBe('unsupported_protocol')
    const prices = await callTool(client, 'get_prices', { tokens: ['ETH', 'USDC'] })
    expect(prices.isError).toBe(false)
    expect(JSON.stringify(prices.data)).toContain('3000')
  })
})

describe('multisig tools, in-process', () => {
  it('proposes from one owner and executes on the second confirmation', async () => {
    const agent = fixture.aw.as(fixture.agent)
    const { wallet: second } = await agent.createWallet({ agentName: 'cosigner' })
    await fixture.devnet.faucet(second.address, parseEther('1'))
    const deployed = await agent.deploySafe({
      owners: [fixture.wallet, second.address],
      threshold: 2,
      wallet: second.address,
    })
    if (deployed.status !== 'deployed') throw new Error('the Safe did not deploy at once')
    const safe = deployed.address as `0x${string}`
    await fixture.devnet.faucet(safe, parseEther('1'))
    const to = freshAddress()

    const proposed = await callTool(client, 'propose_safe_transaction', {
      safe,
      wallet: fixture.wallet,
      to,
      value: '0.25',
    })
    expect(proposed.data).toMatchObject({ status: 'pending', confirmations: 1, threshold: 2 })
    const safeTxHash: string = proposed.data.proposal.safeTxHash
    expect((await callTool(client, 'get_safe', { safe })).data.safe.pendingProposals).toMatchObject([
      { safeTxHash },
    ])

    const neither = await callTool(client, 'confirm_safe_transaction', { safe, safeTxHash })
    expect(neither.data.error.code).toBe('validation_failed')
    const executed = await callTool(client, 'confirm_safe_transaction', {
      safe,
      safeTxHash,
      wallet: second.address,
    })
    expect(executed.data).toMatchObject({ status: 'executed', confirmations: 2 })
    expect(executed.data.hash).toMatch(/^0x[0-9a-f]{64}$/)
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
