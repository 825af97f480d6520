import { type AgentWalletClient, AgentWalletHttpError, createClient } from '@agentwallet/client'
import { BaseError, NotFoundError, PolicyBlockedError, ValidationError } from '@agentwallet/core/contract'
import { createDevnet } from '@agentwallet/devnet'
import { type Address, parseEther, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

let t: TestServer
let admin: AgentWalletClient
let agent: AgentWalletClient
let wallet: Address
const fresh = () => privateKeyToAccount(generatePrivateKey()).address

/** Awaits a call that must fail and checks the thrown error by its code and status. */
async function expectHttpError(call: Promise<unknown>, code: string, status: number) {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(AgentWalletHttpError)
  expect(error).toMatchObject({ code, status })
  return error as AgentWalletHttpError
}

/** A fetch that keeps the status of every answer. */
function statusRecorder(): { statuses: number[]; fetch: typeof fetch } {
  const statuses: number[] = []
  return {
    statuses,
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      statuses.push(response.status)
      return response
    },
  }
}

/** Every client here parses answers with the declared output schemas too. */
async function agentClient(name: string, fetchWith?: typeof fetch): Promise<AgentWalletClient> {
  const { key } = await admin.createApiKey({ name, role: 'agent' })
  return createClient({ baseUrl: t.url, apiKey: key, fetch: fetchWith, validate: true })
}

async function fundedWallet(client: AgentWalletClient, agentName: string, eth = '5'): Promise<Address> {
  const address = (await client.createWallet({ agentName })).wallet.address as Address
  await t.devnet.faucet(address, parseEther(eth))
  return address
}

beforeAll(async () => {
  t = await startTestServer({ devnet: await createDevnet({ ensMinCommitmentAge: 1 }) })
  admin = createClient({ baseUrl: t.url, apiKey: t.adminKey, validate: true })
  agent = await agentClient('trader')
  wallet = await fundedWallet(agent, 'trader', '20')
})
afterAll(async () => {
  await t?.close()
  await t?.devnet.close()
})

describe('wallets and sends through the client', () => {
  it('creates a wallet once per idempotency key and reads it back; lists and numbers go through the query', async () => {
    const keyed = await agentClient('keyed')
    const { wallet: created } = await keyed.createWallet({ agentName: 'keyed' }, { idempotencyKey: 'w1' })
    const replay = await keyed.createWallet({ agentName: 'keyed' }, { idempotencyKey: 'w1' })
    expect(replay.wallet.id).toBe(created.id)
    expect(replay).not.toHaveProperty('success')
    await expectHttpError(
      keyed.createWallet({ agentName: 'other' }, { idempotencyKey: 'w1' }),
      'idempotency_conflict',
      409,
    )
    expect(await keyed.listWallets({ limit: 1 })).toMatchObject({
      count: 1,
      limit: 1,
      wallets: [{ id: created.id }],
    })
    expect((await keyed.getWallet({ wallet: created.address })).wallet.id).toBe(created.id)

    const { prices } = await agent.getPrices({ tokens: ['ETH', 'USDC', 'NOPE'] })
    expect(prices.map((price) => price.token)).toEqual(['ETH', 'USDC', 'NOPE'])
    const usdc = t.devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    const balance = await agent.getBalance({ wallet, tokens: [usdc] })
    expect(balance).toMatchObject({ eth: '20' })
  })

  it('sends, waits for the confirmation, reads it by hash, and replays by idempotency key without a second send', async () => {
    const to = fresh()
    const sent = await agent.send({ wallet, to, value: '0.5' }, { idempotencyKey: 'pay-1' })
    expect(sent).not.toHaveProperty('success')
    expect(sent.hash).toMatch(/^0x[0-9a-f]{64}$/)
    const done = await agent.waitForTransaction({ transaction: sent.hash!, timeoutMs: 30_000 })
    expect(done).toMatchObject({ final: true, status: 'confirmed' })
    expect(await agent.getTransaction({ transaction: sent.hash! })).toMatchObject({
      status: 'confirmed',
      hash: sent.hash,
    })

    const replay = await agent.send({ wallet, to, value: '0.5' }, { idempotencyKey: 'pay-1' })
    expect(replay.transaction.id).toBe(sent.transaction.id)
    await expectHttpError(
      agent.send({ wallet, to, value: '0.6' }, { idempotencyKey: 'pay-1' }),
      'idempotency_conflict',
      409,
    )
    expect(await agent.listHistory({ wallet, limit: 5 })).toMatchObject({ count: 1, limit: 5 })
  })

  it('answers a paused send (202) as a result with its approval; an admin’s approval executes it', async () => {
    const { statuses, fetch } = statusRecorder()
    const careful = await agentClient('careful', fetch)
    const own = await fundedWallet(careful, 'careful')
    await admin.updatePolicyRules({
      wallet: own,
      rules: [{ type: 'require_approval', asset: 'native', above: '1' }],
    })

    const paused = await careful.send({ wallet: own, to: fresh(), value: '2' })
    expect(statuses.at(-1)).toBe(202)
    if (paused.status !== 'pending_approval') throw new Error(`expected a pause, got ${paused.status}`)
    expect(paused.hash).toBeNull()
    expect((await careful.getApproval({ approvalId: paused.approval.id })).approval).toMatchObject({
      status: 'pending',
    })
    await expectHttpError(careful.approve({ approvalId: paused.approval.id }), 'forbidden', 403)

    const approved = await admin.approve({ approvalId: paused.approval.id, reason: 'ok' })
    expect(approved.approval.status).toBe('approved')
    const done = await careful.waitForTransaction({ transaction: approved.transaction.id, timeoutMs: 30_000 })
    expect(done).toMatchObject({ final: true, status: 'confirmed' })
  })

  it('throws AgentWalletHttpError with the envelope’s code, status, details and request id', async () => {
    const strict = await agentClient('strict')
    const own = await fundedWallet(strict, 'strict')
    const { wallet: rules } = await admin.updatePolicyRules({
      wallet: own,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
    })
    const blocked = await expectHttpError(
      strict.send({ wallet: own, to: fresh(), value: '2' }),
      'policy_blocked',
      403,
    )
    expect(blocked.details).toMatchObject({ ruleId: rules?.rules[0]?.id })
    expect(blocked.requestId).toMatch(/\S/)
    expect(blocked).toBeInstanceOf(PolicyBlockedError)

    const typo = { wallet: own, to: fresh(), valeu: '1' }
    const invalid = await expectHttpError(strict.send(typo as never), 'validation_failed', 400)
    expect(invalid).toBeInstanceOf(ValidationError)
    expect(invalid.details).toMatchObject({ issues: expect.arrayContaining([expect.anything()]) })
    await expectHttpError(strict.getTransaction({ transaction: `0x${'ab'.repeat(32)}` }), 'not_found', 404)
    const missing = await expectHttpError(strict.getBalance({ wallet: fresh() }), 'not_found', 404)
    // Core's class, with the server's own words kept (not `NotFoundError`'s "… not found" of its argument).
    expect(missing).toBeInstanceOf(NotFoundError)
    expect(missing).toMatchObject({ name: 'NotFoundError', shortMessage: missing.message })
    const forbidden = await expectHttpError(strict.listWebhooks(), 'forbidden', 403)
    expect(forbidden).toBeInstanceOf(BaseError)
  })
})

describe('the edge’s own routes through the client', () => {
  it('reads health, onboarding and the document, and reaches any path with request()', async () => {
    expect(await agent.health()).toMatchObject({ status: 'ok', chains: [{ name: 'devnet' }] })
    const onboarding = await agent.onboarding()
    expect(onboarding.docs).toEqual({ openapi: '/openapi.json', health: '/health' })
    expect(onboarding.auth.header).toBe('X-API-Key')
    expect((await agent.openApi()).openapi).toBe('3.1.0')
    expect(await agent.request('GET', '/wallet/list', { query: { limit: 1 } })).toMatchObject({
      count: 1,
      limit: 1,
    })
    await expectHttpError(agent.request('GET', `/wallet/${zeroAddress}`), 'not_found', 404)
  })
})

describe('DeFi through the client', () => {
  it('quotes, swaps ETH → USDC (replayed by its idempotency key), stakes', async () => {
    const quote = await agent.quoteSwap({ fromToken: 'ETH', toToken: 'USDC', amount: '1', wallet })
    expect(quote.best.amountOutRaw).toMatch(/^[1-9][0-9]*$/)
    const swapped = await agent.swap(
      { fromToken: 'ETH', toToken: 'USDC', amount: '1', wallet },
      { idempotencyKey: 's1' },
    )
    expect(swapped).toMatchObject({
      status: 'confirmed',
      wallet,
      venue: quote.best.venue,
      amountOutRaw: quote.best.amountOutRaw,
      transaction: { kind: 'swap', status: 'confirmed' },
    })
    const replay = await agent.swap(
      { fromToken: 'ETH', toToken: 'USDC', amount: '1', wallet },
      { idempotencyKey: 's1' },
    )
    expect(replay.hash).toBe(swapped.hash)
    expect(await agent.stake({ protocol: 'lido', amount: '1.5', wallet })).toMatchObject({
      status: 'confirmed',
      received: { amount: '1.5' },
    })
    await expectHttpError(
      agent.stake({ protocol: 'rocketpool', amount: '1', wallet }),
      'unsupported_protocol',
      400,
    )
  })

  it('answers a swap paused for approval (202) as a result, then follows it with getSwap', async () => {
    const { statuses, fetch } = statusRecorder()
    const paused = await agentClient('careful-swapper', fetch)
    const own = await fundedWallet(paused, 'careful-swapper', '2')
    await admin.updatePolicyRules({ wallet: own, rules: [{ type: 'require_approval', always: true }] })

    const swapped = await paused.swap({ fromToken: 'ETH', toToken: 'USDC', amount: '0.5', wallet: own })
    expect(statuses.at(-1)).toBe(202)
    expect(swapped).toMatchObject({ status: 'pending_approval', hash: null })
    if (swapped.status !== 'pending_approval') throw new Error('the swap did not pause')
    const { approval, swapId } = swapped
    expect((await paused.getSwap({ swapId })).swap).toMatchObject({
      status: 'awaiting_approval',
      step: 'swap',
    })
    await admin.approve({ approvalId: approval.id })
    await expect
      .poll(async () => (await paused.getSwap({ swapId })).swap.status, { timeout: 20_000, interval: 100 })
      .toBe('confirmed')
  })
})

describe('multisig through the client', () => {
  it('deploys a 2-of-2 Safe, proposes, reads it, and executes at the second confirmation', async () => {
    const treasurer = await agentClient('treasurer')
    const [owner1, owner2] = [
      await fundedWallet(treasurer, 'o1', '2'),
      await fundedWallet(treasurer, 'o2', '2'),
    ]
    const deployed = await treasurer.deploySafe({ owners: [owner1, owner2], threshold: 2, wallet: owner1 })
    if (deployed.status !== 'deployed') throw new Error(`expected a deployment, got ${deployed.status}`)
    await t.devnet.faucet(deployed.address, parseEther('1'))

    const proposed = await treasurer.proposeSafeTransaction(
      { safe: deployed.address, wallet: owner1, to: fresh(), value: '0.4' },
      { idempotencyKey: 'p1' },
    )
    expect(proposed).toMatchObject({ status: 'pending', confirmations: 1, threshold: 2, transaction: null })
    const { safe } = await treasurer.getSafe({ safe: deployed.address })
    expect(safe.pendingProposals.map((proposal) => proposal.safeTxHash)).toEqual([
      proposed.proposal.safeTxHash,
    ])

    const executed = await treasurer.confirmSafeTransaction({
      safe: deployed.address,
      safeTxHash: proposed.proposal.safeTxHash,
      wallet: owner2,
    })
    expect(executed).toMatchObject({
      status: 'executed',
      confirmations: 2,
      transaction: { status: 'confirmed' },
    })
    await expectHttpError(treasurer.getSafe({ safe: zeroAddress }), 'not_found', 404)
  })
})

describe('identity and ENS through the client', () => {
  it('registers an identity, reads it back and lists it', async () => {
    const created = await agent.registerIdentity(
      { wallet, agentName: 'trader', agentType: 'trading', capabilities: ['swap'] },
      { idempotencyKey: 'id1' },
    )
    if (created.status !== 'registered') throw new Error(`expected a registration, got ${created.status}`)
    const { agentId, registrationId } = created.identity
    expect((await agent.getIdentity({ agentId })).identity).toMatchObject({ agentId, walletBound: true })
    expect((await agent.identitiesOfWallet({ wallet })).count).toBe(1)
    expect((await agent.getIdentityRegistration({ registrationId })).registration.status).toBe('registered')
    await expectHttpError(agent.getIdentity({ agentId: 'abc' }), 'validation_failed', 400)
  })

  it('registers a name (202 is a result) and resolves it both ways', async () => {
    const name = `client-${Date.now().toString(36)}.eth`
    expect(await agent.checkEnsName({ name })).toMatchObject({ name, valid: true, available: true })
    const started = await agent.registerEnsName({ name, wallet, setReverse: true })
    expect(started.status).toBe('committing')
    await expect
      .poll(
        async () =>
          (await agent.getEnsRegistration({ registrationId: started.registration.id })).registration.status,
        {
          timeout: 20_000,
          interval: 100,
        },
      )
      .toBe('registered')
    expect(await agent.resolveEnsName({ name })).toMatchObject({ name, address: wallet })
    expect(await agent.reverseEnsName({ address: wallet })).toMatchObject({ address: wallet, name })
  })
})

// Last in the file: a live subscription would queue deliveries for the events of later tests.
describe('webhooks through the client', () => {
  it('subscribes, lists, reads the delivery log, and deletes', async () => {
    // A public literal address (documentation ranges are refused): the server resolves no DNS for
    // it, and nothing is delivered before the delete.
    const url = 'https://1.1.1.1/hooks/agentwallet'
    const { subscription, secret } = await admin.subscribeWebhook({ url, events: ['tx.confirmed'] })
    expect(secret).toMatch(/^whsec_/)
    expect((await admin.listWebhooks()).subscriptions.map((entry) => entry.id)).toEqual([subscription.id])
    expect(await admin.listWebhookDeliveries({ subscriptionId: subscription.id })).toMatchObject({ count: 0 })
    await expectHttpError(admin.retryWebhookDelivery({ deliveryId: 'whd_nope_1' }), 'not_found', 404)
    expect(await admin.deleteWebhook({ subscriptionId: subscription.id })).toEqual({
      deleted: subscription.id,
    })
    await expectHttpError(admin.deleteWebhook({ subscriptionId: subscription.id }), 'not_found', 404)
  })
})
