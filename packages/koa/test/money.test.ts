import { AgentWalletHttpError, createClient } from '@agentwallet/client'
import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

let t: TestServer
let agentKey: string
let approverKey: string
const fresh = () => privateKeyToAccount(generatePrivateKey()).address

async function waitFor(hash: string, key: string, status = 'confirmed') {
  for (let i = 0; i < 200; i++) {
    const response = await t.call('GET', `/wallet/tx/${hash}`, { key })
    if (response.body.status === status) return response
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`tx ${hash} never reached ${status}`)
}

beforeAll(async () => {
  t = await startTestServer()
  agentKey = (await t.call('POST', '/api-keys', { body: { name: 'bot', role: 'agent' } })).body.key
  approverKey = (await t.call('POST', '/api-keys', { body: { name: 'human', role: 'approver' } })).body.key
})
afterAll(async () => t?.close())

describe('the reference SDK calls', () => {
  it('createWallet → wallet.address; send → transaction.hash; then status, balance, history, gas', async () => {
    const client = createClient({ baseUrl: t.url, apiKey: agentKey })
    const { wallet } = await client.createWallet({ agentName: 'sdk', chain: 'devnet' })
    expect(wallet).toMatchObject({ agentName: 'sdk', chain: 'devnet' })
    expect(wallet.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(wallet.id).toBeTypeOf('string')
    expect(wallet.createdAt).toBeTypeOf('string')
    await t.devnet.faucet(wallet.address, parseEther('3'))

    const balance = await client.getBalance({ wallet: wallet.address })
    expect(balance.eth).toBe('3')
    expect(balance.balance).toEqual({
      chain: 'devnet',
      eth: '3',
      wei: parseEther('3').toString(),
      tokens: balance.tokens,
    })

    const to = fresh()
    const sent = await client.send({ wallet: wallet.address, to, value: '0.25', chain: 'devnet' })
    expect(sent.transaction.hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(sent.transaction.status).toBe('submitted')
    const done = await waitFor(sent.transaction.hash!, agentKey)
    expect(done.body).toMatchObject({ success: true, status: 'confirmed', hash: sent.transaction.hash })
    expect(done.body.blockNumber).toBeTypeOf('number')
    expect(done.body.confirmations).toBeGreaterThanOrEqual(1)
    expect('explorer' in done.body).toBe(true)
    const onChain = await t.call('GET', `/wallet/tx/${sent.transaction.hash}?chain=devnet`, { key: agentKey })
    expect(onChain.body.status).toBe('confirmed')
    const unknownChain = await t.call('GET', `/wallet/tx/${sent.transaction.hash}?chain=moonbase`, {
      key: agentKey,
    })
    expect(unknownChain.status).toBe(400)
    expect(unknownChain.body.error.code).toBe('unsupported_chain')

    const history = await client.listHistory({ wallet: wallet.address, limit: 5 })
    expect(history).toMatchObject({ count: 1, limit: 5, offset: 0 })
    expect(history.transactions[0]?.hash).toBe(sent.transaction.hash)

    const estimate = await client.estimateGas({ wallet: wallet.address, to, value: '0.1' })
    expect(BigInt(estimate.gasLimit)).toBeGreaterThanOrEqual(21000n)

    const list = await client.listWallets()
    expect(list.count).toBe(1)
  })

  it('imports a key (201) and refuses the same key twice (409)', async () => {
    const privateKey = generatePrivateKey()
    const first = await t.call('POST', '/wallet/import', { body: { privateKey, agentName: 'imported' } })
    expect(first.status).toBe(201)
    expect(first.body.wallet.address).toBe(privateKeyToAccount(privateKey).address)
    expect(JSON.stringify(first.body)).not.toContain(privateKey.slice(2))
    const again = await t.call('POST', '/wallet/import', { body: { privateKey, agentName: 'imported' } })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('conflict')
  })

  it('throws AgentWalletHttpError with code, status and details', async () => {
    const client = createClient({ baseUrl: t.url, apiKey: agentKey })
    const error = await client.send({ wallet: fresh(), to: fresh(), value: '1' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentWalletHttpError)
    expect(error).toMatchObject({ code: 'not_found', status: 404 })
    const bad = await createClient({ baseUrl: t.url, apiKey: 'aw_wrong' })
      .listWallets()
      .catch((e: unknown) => e)
    expect(bad).toMatchObject({ code: 'unauthorized', status: 401 })
  })
})

describe('policy over HTTP', () => {
  it('blocks with 403 policy_blocked naming the rule, evaluates dry runs, and pauses for approval (202 → approve → confirmed)', async () => {
    const agent = createClient({ baseUrl: t.url, apiKey: agentKey })
    const { wallet } = await agent.createWallet({ agentName: 'hitl' })
    await t.devnet.faucet(wallet.address, parseEther('10'))
    const updated = await t.call('POST', '/policy/update', {
      body: {
        wallet: wallet.address,
        rules: [
          { type: 'max_per_tx', asset: 'native', max: '5' },
          { type: 'require_approval', asset: 'native', above: '1' },
        ],
      },
    })
    expect(updated.status).toBe(200)
    expect(updated.body.wallet.rules).toHaveLength(2)
    const maxRule = updated.body.wallet.rules[0]
    expect(maxRule.id).toBeTypeOf('string')
    const rules = await t.call('GET', `/policy/rules?wallet=${wallet.address}`, { key: agentKey })
    expect(rules.body.wallet.rules).toEqual(updated.body.wallet.rules)

    const blocked = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      body: { to: fresh(), value: '6' },
    })
    expect(blocked.status).toBe(403)
    expect(blocked.body.error.code).toBe('policy_blocked')
    expect(blocked.body.error.details.ruleId).toBe(maxRule.id)

    const dryRun = await t.call('POST', '/policy/evaluate', {
      key: agentKey,
      body: { from: wallet.address, to: fresh(), value: '2' },
    })
    expect(dryRun.status).toBe(200)
    expect(dryRun.body.decision.decision).toBe('require_approval')

    const paused = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      body: { to: fresh(), value: '2' },
    })
    expect(paused.status).toBe(202)
    expect(paused.body).toMatchObject({
      success: true,
      status: 'pending_approval',
      transaction: { status: 'pending_approval' },
    })
    const approvalId = paused.body.approval.id
    expect(paused.body.approval).toMatchObject({
      id: expect.any(String),
      expiresAt: expect.any(String),
      reason: expect.any(String),
    })
    expect(paused.body.transaction.id).toBeTypeOf('string')

    const pending = await t.call('GET', '/policy/approvals?status=pending', { key: approverKey })
    expect(pending.body.approvals.map((a: { id: string }) => a.id)).toContain(approvalId)

    const byAgent = await t.call('POST', `/policy/approvals/${approvalId}/approve`, {
      key: agentKey,
      body: {},
    })
    expect(byAgent.status).toBe(403)
    expect(byAgent.body.error.code).toBe('forbidden')

    const approved = await t.call('POST', `/policy/approvals/${approvalId}/approve`, { key: approverKey })
    expect(approved.status).toBe(200)
    expect(approved.body.approval.status).toBe('approved')
    expect(approved.body.transaction.hash).toMatch(/^0x[0-9a-f]{64}$/)
    await waitFor(approved.body.transaction.hash, agentKey)

    const twice = await t.call('POST', `/policy/approvals/${approvalId}/approve`, {
      key: approverKey,
      body: {},
    })
    expect(twice.status).toBe(409)
    expect(twice.body.error.code).toBe('approval_not_pending')

    const another = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      body: { to: fresh(), value: '1.5' },
    })
    const rejected = await t.call('POST', `/policy/approvals/${another.body.approval.id}/reject`, {
      key: approverKey,
      body: { reason: 'no' },
    })
    expect(rejected.body).toMatchObject({
      success: true,
      approval: { status: 'rejected' },
      transaction: { status: 'rejected' },
    })
  })

  it('turns insufficient funds into an enveloped 4xx', async () => {
    const { wallet } = (
      await t.call('POST', '/wallet/create', { key: agentKey, body: { agentName: 'broke' } })
    ).body
    const response = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      body: { to: fresh(), value: '0.5' },
    })
    expect(response.status).toBe(422)
    expect(response.body.error.code).toBe('insufficient_funds')
  })

  it('refuses a send that would pause for approval but cannot be paid: 422, no approval', async () => {
    const { wallet } = (
      await t.call('POST', '/wallet/create', { key: agentKey, body: { agentName: 'short' } })
    ).body
    await t.devnet.faucet(wallet.address, parseEther('0.4'))
    await t.call('POST', '/policy/update', {
      body: { wallet: wallet.address, rules: [{ type: 'require_approval', asset: 'native', above: '0.5' }] },
    })
    const response = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      body: { to: fresh(), value: '0.9' },
    })
    expect(response.status).toBe(422)
    expect(response.body).toMatchObject({ success: false, error: { code: 'insufficient_funds' } })
    const pending = await t.call('GET', '/policy/approvals?status=pending&limit=200', { key: approverKey })
    expect(pending.body.approvals.filter((a: { walletId: string }) => a.walletId === wallet.id)).toEqual([])
    const history = await t.call('GET', `/wallet/${wallet.address}/history`, { key: agentKey })
    expect(history.body.count).toBe(0)
  })
})

describe('idempotency', () => {
  it('replays a send with the same body and key, refuses another body (409)', async () => {
    const { wallet } = (
      await t.call('POST', '/wallet/create', { key: agentKey, body: { agentName: 'idem' } })
    ).body
    await t.devnet.faucet(wallet.address, parseEther('1'))
    const to = fresh()
    const headers = { 'idempotency-key': 'order-42' }
    const first = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      headers,
      body: { to, value: '0.1' },
    })
    const replay = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      headers,
      body: { value: '0.1', to },
    })
    expect(first.status).toBe(200)
    expect(replay.status).toBe(200)
    expect(replay.body.transaction.id).toBe(first.body.transaction.id)
    expect(replay.body.transaction.hash).toBe(first.body.transaction.hash)
    const conflict = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      headers,
      body: { to, value: '0.2' },
    })
    expect(conflict.status).toBe(409)
    expect(conflict.body.error.code).toBe('idempotency_conflict')
    const history = await t.call('GET', `/wallet/${wallet.address}/history`, { key: agentKey })
    expect(history.body.count).toBe(1)
  })

  it('replays a wallet creation', async () => {
    const headers = { 'idempotency-key': 'create-1' }
    const first = await t.call('POST', '/wallet/create', {
      key: agentKey,
      headers,
      body: { agentName: 'once' },
    })
    const second = await t.call('POST', '/wallet/create', {
      key: agentKey,
      headers,
      body: { agentName: 'once' },
    })
    expect(second.body.wallet).toEqual(first.body.wallet)
    const conflict = await t.call('POST', '/wallet/create', {
      key: agentKey,
      headers,
      body: { agentName: 'twice' },
    })
    expect(conflict.status).toBe(409)
    expect(conflict.body.error.code).toBe('idempotency_conflict')
  })
})

describe('budgets in US dollars over HTTP', () => {
  it('takes usd rules, shows details.usd in dry runs and 403s, and the value on the transaction', async () => {
    const agent = createClient({ baseUrl: t.url, apiKey: agentKey })
    const { wallet } = await agent.createWallet({ agentName: 'usd-budget' })
    await t.devnet.faucet(wallet.address, parseEther('10'))
    const updated = await t.call('POST', '/policy/update', {
      body: {
        wallet: wallet.address,
        rules: [
          { id: 'usd-day', type: 'spend_limit', asset: 'USD', max: '100', window: '24h' },
          { id: 'usd-tx', type: 'max_per_tx', asset: 'usd', max: '60' },
          { id: 'usd-hitl', type: 'require_approval', asset: 'usd', above: '40' },
        ],
      },
    })
    expect(updated.status).toBe(200)
    expect(updated.body.wallet.rules.map((rule: { asset: string }) => rule.asset)).toEqual([
      'usd',
      'usd',
      'usd',
    ])
    const invalid = await t.call('POST', '/policy/update', {
      body: { wallet: wallet.address, rules: [{ type: 'require_approval', asset: 'usd', always: true }] },
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body.error.code).toBe('validation_failed')

    const dryRun = await t.call('POST', '/policy/evaluate', {
      key: agentKey,
      body: { from: wallet.address, to: fresh(), value: '0.015' },
    })
    expect(dryRun.status).toBe(200)
    expect(dryRun.body.decision).toMatchObject({
      decision: 'require_approval',
      ruleId: 'usd-hitl',
      details: {
        threshold: '40',
        requested: '45',
        usd: { value: '45', asset: 'native', symbol: 'ETH', amount: '0.015', price: '3000', pair: 'ETH/USD' },
      },
    })

    const sent = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      body: { to: fresh(), value: '0.01' },
    })
    expect(sent.status).toBe(200)
    expect(sent.body.transaction.usd).toMatchObject({ value: '30', price: '3000', pair: 'ETH/USD' })
    const blocked = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      body: { to: fresh(), value: '0.021' },
    })
    expect(blocked.status).toBe(403)
    expect(blocked.body.error).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'usd-tx', limit: '60', requested: '63', usd: { value: '63', symbol: 'ETH' } },
    })
    const read = await t.call('GET', `/wallet/tx/${sent.body.transaction.id}`, { key: agentKey })
    expect(read.body.transaction.usd).toMatchObject({ value: '30' })
  })
})
