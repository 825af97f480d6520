import type { AgentWallet, Principal } from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletOn, freshAddress } from '../helpers/devnetAgentWallet.js'

// Issue #42, item 3: an agent's window spans every chain its wallets send on, and holds under concurrent sends.
let devnet: Devnet
let other: Devnet
let aw: AgentWallet

beforeAll(async () => {
  ;[devnet, other] = await Promise.all([createDevnet(), createDevnet()])
  aw = await agentWalletOn(devnet, {
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
      other: { provider: other.provider, chainId: other.chain.id, contracts: other.addressBook },
    },
  })
})
afterAll(async () => {
  await aw?.close()
  await Promise.all([devnet?.close(), other?.close()])
})

describe('an agent limit across chains', () => {
  it('counts a send on one chain against the agent’s send on another', async () => {
    const { apiKey } = await aw.createApiKey({ name: 'roamer', role: 'agent' })
    const agent = aw.as({ tenantId: 'default', id: apiKey.id, role: 'agent' } satisfies Principal)
    const { wallet: here } = await agent.createWallet({ agentName: 'here', chain: 'devnet' })
    const { wallet: there } = await agent.createWallet({ agentName: 'there', chain: 'other' })
    await devnet.faucet(here.address, parseEther('2'))
    await other.faucet(there.address, parseEther('2'))
    const agentDay = { id: 'agent-day', type: 'spend_limit', asset: 'native', max: '1', window: '24h' }
    await aw.updatePolicyRules({ agent: apiKey.id, rules: [agentDay] })

    const sent = await agent.send({ wallet: here.address, to: freshAddress(), value: '0.7' })
    expect(sent.status).not.toBe('pending_approval')
    const refused = await agent
      .send({ wallet: there.address, to: freshAddress(), value: '0.7', chain: 'other' })
      .catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: 'policy_blocked', details: { ruleId: 'agent-day', spent: '0.7' } })
    const within = await agent.send({
      wallet: there.address,
      to: freshAddress(),
      value: '0.3',
      chain: 'other',
    })
    expect(within.transaction.chain).toBe('other')
  })

  it('lets only one of two concurrent sends from two wallets of the agent through when both would pass the cap', async () => {
    const { apiKey } = await aw.createApiKey({ name: 'racer', role: 'agent' })
    const agent = aw.as({ tenantId: 'default', id: apiKey.id, role: 'agent' } satisfies Principal)
    const held = await Promise.all(
      ['one', 'two'].map(async (agentName) => {
        const { wallet } = await agent.createWallet({ agentName, chain: 'devnet' })
        await devnet.faucet(wallet.address, parseEther('2'))
        return wallet
      }),
    )
    const agentDay = { id: 'agent-day', type: 'spend_limit', asset: 'native', max: '1', window: '24h' }
    await aw.updatePolicyRules({ agent: apiKey.id, rules: [agentDay] })
    const outcomes = await Promise.allSettled(
      held.map((wallet) => agent.send({ wallet: wallet.address, to: freshAddress(), value: '0.6' })),
    )
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
    const refused = outcomes.find((outcome) => outcome.status === 'rejected')
    expect(refused?.reason).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'agent-day', spent: '0.6' },
    })
  })

  it('refuses a sponsor_gas rule on an agent key, which would sponsor nothing, and keeps the key’s rules', async () => {
    const { apiKey } = await aw.createApiKey({ name: 'sponsor-seeker', role: 'agent' })
    const kept = { id: 'kept', type: 'max_per_tx', asset: 'native', max: '1' }
    await aw.updatePolicyRules({ agent: apiKey.id, rules: [kept] })
    const sponsor = { type: 'sponsor_gas', max: '0.05' }
    const refused = await aw
      .updatePolicyRules({ agent: apiKey.id, rules: [kept, sponsor] })
      .catch((error: unknown) => error)
    expect(refused).toMatchObject({
      code: 'validation_failed',
      details: { issues: [{ path: [1, 'type'], message: expect.stringContaining('sponsor_gas') }] },
    })
    const rules = await aw.getPolicyRules({ agent: apiKey.id })
    expect(rules.agent?.rules.map((rule) => rule.id)).toEqual(['kept'])
    // The tenant's rules may hold it: that is where sponsorship is read.
    const tenant = await aw.getPolicyRules()
    await aw.updatePolicyRules({ rules: [...tenant.tenant, sponsor] })
    expect((await aw.getPolicyRules()).tenant.map((rule) => rule.type)).toContain('sponsor_gas')
  })
})
