import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshAddress } from '../../../test/helpers/devnetAgentWallet.js'
import { startTestServer, type TestServer } from './helpers/testServer.js'

// Issue #42, item 3: a limit per agent (its API key), counted over every wallet the key holds.
let t: TestServer
let agent: { id: string; key: string }
let other: { id: string; key: string }
let approverKey: string

async function newKey(name: string, role: string) {
  const { body } = await t.call('POST', '/api-keys', { body: { name, role } })
  return { id: body.apiKey.id as string, key: body.key as string }
}

async function walletOf(key: string, agentName: string): Promise<string> {
  const { body } = await t.call('POST', '/wallet/create', { key, body: { agentName } })
  await t.devnet.faucet(body.wallet.address, parseEther('5'))
  // Each wallet may spend 0.8 ETH a day on its own: under it, whatever the agent spends elsewhere.
  const rules = [{ id: 'wallet-day', type: 'spend_limit', asset: 'native', max: '0.8', window: '24h' }]
  expect(
    (await t.call('POST', '/policy/update', { body: { wallet: body.wallet.address, rules } })).status,
  ).toBe(200)
  return body.wallet.address
}

const agentDay = {
  id: 'agent-day',
  type: 'spend_limit',
  asset: 'native',
  max: '1',
  window: '24h',
  description: 'One ETH a day per agent',
}

beforeAll(async () => {
  t = await startTestServer()
  agent = await newKey('research', 'agent')
  other = await newKey('trader', 'agent')
  approverKey = (await newKey('human', 'approver')).key
})
afterAll(async () => t?.close())

describe('limits per agent', () => {
  it('counts one window over every wallet the agent key holds: the second wallet’s send is denied by the agent rule', async () => {
    const first = await walletOf(agent.key, 'research-1')
    const second = await walletOf(agent.key, 'research-2')
    const set = await t.call('POST', '/policy/update', { body: { agent: agent.id, rules: [agentDay] } })
    expect(set.status).toBe(200)
    expect(set.body.agent).toMatchObject({ id: agent.id, name: 'research', rules: [agentDay] })

    const sent = await t.call('POST', `/wallet/${first}/send`, {
      key: agent.key,
      body: { to: freshAddress(), value: '0.6' },
    })
    expect(sent.status).toBe(200)

    // The dry run shows the agent rule with what the agent's other wallet spent.
    const dryRun = await t.call('POST', '/policy/evaluate', {
      key: agent.key,
      body: { wallet: second, to: freshAddress(), value: '0.6' },
    })
    expect(dryRun.status).toBe(200)
    expect(dryRun.body.decision).toMatchObject({ decision: 'deny', ruleId: 'agent-day' })
    const outcomes = dryRun.body.decision.outcomes
    expect(outcomes.find((outcome: { ruleId: string }) => outcome.ruleId === 'agent-day')).toMatchObject({
      scope: 'agent',
      decision: 'deny',
      details: { spent: '0.6', limit: '1', requested: '0.6' },
    })
    // The wallet's own cap sees nothing spent from this wallet, and would allow it.
    expect(outcomes.find((outcome: { ruleId: string }) => outcome.ruleId === 'wallet-day')).toMatchObject({
      scope: 'wallet',
      decision: 'allow',
      details: { spent: '0' },
    })

    const blocked = await t.call('POST', `/wallet/${second}/send`, {
      key: agent.key,
      body: { to: freshAddress(), value: '0.6' },
    })
    expect(blocked.status).toBe(403)
    expect(blocked.body.error.code).toBe('policy_blocked')
    expect(blocked.body.error.details).toMatchObject({ ruleId: 'agent-day', spent: '0.6', limit: '1' })

    // Within what the agent has left, the second wallet still sends.
    const within = await t.call('POST', `/wallet/${second}/send`, {
      key: agent.key,
      body: { to: freshAddress(), value: '0.4' },
    })
    expect(within.status).toBe(200)

    // Another agent's wallet is not counted, nor limited, by this agent's rules.
    const theirs = await walletOf(other.key, 'trader-1')
    const free = await t.call('POST', `/wallet/${theirs}/send`, {
      key: other.key,
      body: { to: freshAddress(), value: '0.6' },
    })
    expect(free.status).toBe(200)
  })

  it('lets admins set an agent’s rules; agents read only their own; approvers read them', async () => {
    const rules = [{ type: 'rate_limit', max: 5, window: '1h' }]
    for (const key of [agent.key, approverKey]) {
      const refused = await t.call('POST', '/policy/update', { key, body: { agent: agent.id, rules } })
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe('forbidden')
    }
    const own = await t.call('GET', `/policy/rules?agent=${agent.id}`, { key: agent.key })
    expect(own.status).toBe(200)
    expect(own.body.agent).toMatchObject({ id: agent.id, rules: [agentDay] })
    const read = await t.call('GET', `/policy/rules?agent=${agent.id}`, { key: approverKey })
    expect(read.body.agent.rules).toEqual([agentDay])
    // A wallet's rules name the agent rules that apply to it too.
    const { body: listed } = await t.call('GET', '/wallet/list', { key: agent.key })
    const held = await t.call('GET', `/policy/rules?wallet=${listed.wallets[0].address}`, {
      key: approverKey,
    })
    expect(held.body.agent).toMatchObject({ id: agent.id, name: 'research', rules: [agentDay] })
    const others = await t.call('GET', `/policy/rules?agent=${agent.id}`, { key: other.key })
    expect(others.status).toBe(404)
    expect(others.body.error.code).toBe('not_found')
  })

  it('refuses an unknown key (404) and a wallet and an agent at once (400)', async () => {
    const unknown = await t.call('POST', '/policy/update', { body: { agent: 'key_nobody', rules: [] } })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('not_found')
    const { body } = await t.call('POST', '/wallet/create', { key: agent.key, body: { agentName: 'both' } })
    const both = await t.call('POST', '/policy/update', {
      body: { wallet: body.wallet.address, agent: agent.id, rules: [] },
    })
    expect(both.status).toBe(400)
    expect(both.body.error.code).toBe('validation_failed')
  })
})
