import { blockaidScreening } from '@agentwallet/screening-blockaid'
import { type Address, encodeFunctionData, erc20Abi, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type HarnessServer, startHarnessServer } from '../harness/harnessServer.js'
import { type BlockaidApi, startBlockaidApi } from '../helpers/blockaidApi.js'
import { freshAddress, publicClientOf, verifyTrail } from '../helpers/devnetAgentWallet.js'

// Over HTTP, with Blockaid (its own client, against a local server speaking its documented API): a
// "Malicious" verdict on a contract call denies it, a "Warning" pauses it for approval with the card
// showing why, and an outage answers as the rule's onOutage says.
let h: HarnessServer
let api: BlockaidApi
let agent: string
let usdc: Address
const friend = freshAddress()

beforeAll(async () => {
  api = await startBlockaidApi()
  h = await startHarnessServer({
    screening: {
      sources: [
        blockaidScreening({
          apiKey: api.apiKey,
          baseURL: api.url,
          chains: { 31337: 'ethereum' },
          maxRetries: 0,
        }),
      ],
      ttlMs: 0,
    },
  })
  agent = (
    await h.call('POST', '/api-keys', { key: h.adminKey, body: { name: 'vendor-agent', role: 'agent' } })
  ).body.key
  usdc = h.devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
})
afterAll(async () => {
  await h?.close()
  await api?.close()
  // Every decision, screening verdicts included, re-runs offline from the audit trail to the same answer.
  if (h) expect((await verifyTrail(h.agentWallet)).problems).toEqual([])
})

async function walletWith(rule: Record<string, unknown>): Promise<Address> {
  const { body } = await h.call('POST', '/wallet/create', {
    key: agent,
    body: { agentName: 'vendor-screened' },
  })
  const wallet = body.wallet.address as Address
  await h.devnet.faucet(wallet, parseEther('1'))
  await h.devnet.mintToken(usdc, wallet, parseUnits('100', 6))
  const updated = await h.call('POST', '/policy/update', {
    key: h.adminKey,
    body: {
      wallet,
      rules: [{ id: 'vendor', type: 'screen_counterparties', sources: ['blockaid'], ...rule }],
    },
  })
  expect(updated.status).toBe(200)
  return wallet
}

const transfer = (amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [friend, amount] })
const send = (wallet: Address, data: string) =>
  h.call('POST', `/wallet/${wallet}/send`, { key: agent, body: { to: usdc, value: '0', data } })
const nonce = (wallet: Address) => publicClientOf(h.devnet).getTransactionCount({ address: wallet })

describe('Blockaid verdicts over HTTP', () => {
  it('denies a call Blockaid calls malicious, before anything is signed', async () => {
    const wallet = await walletWith({})
    const data = transfer(1_000_000n)
    api.calls.set(data, 'Malicious')
    const denied = await send(wallet, data)
    expect(denied.status).toBe(403)
    expect(denied.body.error).toMatchObject({
      code: 'policy_blocked',
      details: {
        ruleId: 'vendor',
        subject: usdc,
        roles: ['call'],
        verdict: 'block',
        source: 'blockaid',
        reasons: [
          'known_malicious: transfer_farming',
          'Known drainer: this address stole funds from 1,204 wallets',
        ],
      },
    })
    expect(await nonce(wallet)).toBe(0)
    expect(api.requests).toContain('/v0/evm/transaction/scan')
    expect(api.requests).toContain('/v0/evm/address/scan')
  })

  it('pauses a call Blockaid warns about, the approver’s card saying why, and sends it once approved', async () => {
    const wallet = await walletWith({})
    const data = transfer(2_000_000n)
    api.calls.set(data, 'Warning')
    const paused = await send(wallet, data)
    expect(paused.status).toBe(202)
    expect(paused.body).toMatchObject({ status: 'pending_approval', approval: { ruleId: 'vendor' } })
    const { body } = await h.call('GET', `/policy/approvals/${paused.body.approval.id}`, { key: h.adminKey })
    expect(body.approval).toMatchObject({
      ruleId: 'vendor',
      reason: `The call to ${usdc} is flagged by screening source "blockaid": unverified_contract: unusual_call; Unverified contract deployed 2 days ago`,
      details: { verdict: 'warn', source: 'blockaid', roles: ['call'] },
    })
    expect(body.approval.details.verdicts).toContainEqual({
      subject: friend,
      roles: ['recipient'],
      verdict: 'clear',
      source: 'blockaid',
      reasons: [],
    })
    const approved = await h.call('POST', `/policy/approvals/${paused.body.approval.id}/approve`, {
      key: h.adminKey,
      body: {},
    })
    expect(approved.status).toBe(200)
    expect(approved.body.transaction.hash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('answers Blockaid’s outage as onOutage says: refused (closed, the default), paused, or let through', async () => {
    const closed = await walletWith({})
    const approval = await walletWith({ onOutage: 'approval' })
    const open = await walletWith({ onOutage: 'open' })
    api.failWith(503)
    try {
      const refused = await send(closed, transfer(3_000_000n))
      expect(refused.status).toBe(503)
      expect(refused.body.error).toMatchObject({
        code: 'screening_unavailable',
        details: {
          source: 'blockaid',
          reason: 'Screening source "blockaid" is unavailable: Blockaid answered 503',
        },
      })
      // Nothing was stored or signed: it can be sent again once Blockaid answers.
      const history = await h.call('GET', `/wallet/${closed}/history`, { key: agent })
      expect(history.body.transactions).toHaveLength(0)
      expect(await nonce(closed)).toBe(0)

      const paused = await send(approval, transfer(3_000_000n))
      expect(paused.status).toBe(202)
      expect(paused.body.approval.reason).toMatch(/^Screening source "blockaid" could not screen/)

      const through = await send(open, transfer(3_000_000n))
      expect(through.status).toBe(200)
      const evaluated = await h.call('POST', '/policy/evaluate', {
        key: agent,
        body: { wallet: open, to: usdc, value: '0', data: transfer(3_000_000n) },
      })
      const outcome = evaluated.body.decision.outcomes.find(
        (entry: { ruleId: string }) => entry.ruleId === 'vendor',
      )
      expect(outcome.details.outages).toContainEqual({
        source: 'blockaid',
        subject: 'call',
        reason: 'Screening source "blockaid" is unavailable: Blockaid answered 503',
      })
    } finally {
      api.failWith(undefined)
    }
    const metrics = await h.call('GET', '/metrics', {
      headers: { authorization: `Bearer ${h.metricsToken}` },
    })
    expect(
      Number(/agentwallet_screening_outages_total\{source="blockaid"\} (\d+)/.exec(metrics.text)?.[1]),
    ).toBeGreaterThan(0)
    expect(metrics.text).toMatch(
      /agentwallet_screening_verdicts_total\{source="blockaid",verdict="block"\} [1-9]/,
    )
    expect(metrics.text).toMatch(
      /agentwallet_screening_verdicts_total\{source="blockaid",verdict="warn"\} [1-9]/,
    )
  })
})
