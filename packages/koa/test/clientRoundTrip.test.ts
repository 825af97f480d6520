import { type AgentWalletClient, AgentWalletHttpError, createClient } from '@agentwallet/client'
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
}

async function agentClient(name: string, fetchWith?: typeof fetch): Promise<AgentWalletClient> {
  const { key } = await admin.createApiKey({ name, role: 'agent' })
  return createClient({ baseUrl: t.url, apiKey: key, fetch: fetchWith })
}

beforeAll(async () => {
  t = await startTestServer({ devnet: await createDevnet({ ensMinCommitmentAge: 1 }) })
  admin = createClient({ baseUrl: t.url, apiKey: t.adminKey })
  agent = await agentClient('trader')
  wallet = (await agent.createWallet({ agentName: 'trader' })).wallet.address as Address
  await t.devnet.faucet(wallet, parseEther('20'))
})
afterAll(async () => {
  await t?.close()
  await t?.devnet.close()
})

describe('DeFi through the client', () => {
  it('quotes, swaps ETH → USDC (replayed by its idempotency key), stakes and reads prices', async () => {
    const quote = await agent.quoteSwap({ fromToken: 'ETH', toToken: 'USDC', amount: '1' })
    expect(quote.quotes.length).toBeGreaterThanOrEqual(2)
    expect(quote.best.amountOutRaw).toMatch(/^[1-9][0-9]*$/)

    const swapped = await agent.swap(
      { fromToken: 'ETH', toToken: 'USDC', amount: '1' },
      { idempotencyKey: 's1' },
    )
    expect(swapped).toMatchObject({
      success: true,
      status: 'confirmed',
      wallet,
      venue: quote.best.venue,
      amountOutRaw: quote.best.amountOutRaw,
      allowanceTransaction: null,
      transaction: { kind: 'swap', status: 'confirmed' },
    })
    expect(swapped.hash).toBe(swapped.transaction?.hash)
    const replay = await agent.swap(
      { fromToken: 'ETH', toToken: 'USDC', amount: '1' },
      { idempotencyKey: 's1' },
    )
    expect(replay.hash).toBe(swapped.hash)
    const usdc = t.devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    expect((await agent.getBalance(wallet, { tokens: [usdc] })).tokens[0]?.raw).toBe(swapped.amountOutRaw)

    const staked = await agent.stake({ protocol: 'lido', amount: '1.5' })
    expect(staked).toMatchObject({
      status: 'confirmed',
      received: { amount: '1.5' },
      transaction: { kind: 'stake' },
    })

    const { prices } = await agent.getPrices({ tokens: ['ETH', 'USDC', 'NOPE'] })
    expect(prices).toMatchObject([
      { token: 'ETH', price: '3000', currency: 'USD' },
      { token: 'USDC', price: '1' },
      { token: 'NOPE', error: { code: 'not_found' } },
    ])
  })

  it('returns a swap paused for approval (202) as a result, then follows it with getSwap', async () => {
    const statuses: number[] = []
    const paused = await agentClient('careful', async (input, init) => {
      const response = await fetch(input, init)
      statuses.push(response.status)
      return response
    })
    const own = (await paused.createWallet({ agentName: 'careful' })).wallet.address as Address
    await t.devnet.faucet(own, parseEther('2'))
    await admin.updatePolicyRules({ wallet: own, rules: [{ type: 'require_approval', always: true }] })

    const swapped = await paused.swap({ fromToken: 'ETH', toToken: 'USDC', amount: '0.5' })
    expect(statuses.at(-1)).toBe(202)
    expect(swapped.status).toBe('pending_approval')
    if (swapped.status !== 'pending_approval') return
    expect(swapped.hash).toBeNull()
    expect((await paused.getApproval(swapped.approval.id)).approval).toMatchObject({ status: 'pending' })
    expect((await paused.getSwap(swapped.swapId)).swap).toMatchObject({
      status: 'awaiting_approval',
      step: 'swap',
    })

    await admin.approve(swapped.approval.id)
    await expect
      .poll(async () => (await paused.getSwap(swapped.swapId)).swap.status, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe('confirmed')
  })

  it('throws AgentWalletHttpError with the server’s code for bad requests', async () => {
    const typo = { fromToken: 'ETH', toToken: 'USDC', amount: '1', slipage: 10 }
    await expectHttpError(agent.swap(typo as never), 'validation_failed', 400)
    await expectHttpError(agent.stake({ protocol: 'rocketpool', amount: '1' }), 'unsupported_protocol', 400)
    await expectHttpError(agent.getPrices({ tokens: [] }), 'validation_failed', 400)
    await expectHttpError(agent.getSwap('swp_nope'), 'not_found', 404)
  })
})

describe('multisig through the client', () => {
  it('deploys a 2-of-2 Safe, proposes, reads it, and executes at the second confirmation', async () => {
    const treasurer = await agentClient('treasurer')
    const owner = async (agentName: string) => {
      const { address } = (await treasurer.createWallet({ agentName })).wallet
      await t.devnet.faucet(address as Address, parseEther('2'))
      return address
    }
    const [owner1, owner2] = [await owner('o1'), await owner('o2')]
    await expectHttpError(
      treasurer.deploySafe({ owners: [owner1, owner2], threshold: 3, from: owner1 }),
      'validation_failed',
      400,
    )

    const deployed = await treasurer.deploySafe({ owners: [owner1, owner2], threshold: 2, from: owner1 })
    expect(deployed).toMatchObject({ status: 'deployed', threshold: 2, transaction: { kind: 'multisig' } })
    if (deployed.status !== 'deployed') return
    await t.devnet.faucet(deployed.address, parseEther('1'))

    const recipient = fresh()
    const proposed = await treasurer.proposeSafeTransaction(
      deployed.address,
      { from: owner1, to: recipient, value: '0.4' },
      { idempotencyKey: 'p1' },
    )
    expect(proposed).toMatchObject({ status: 'pending', confirmations: 1, threshold: 2, transaction: null })
    const { safe } = await treasurer.getSafe(deployed.address)
    expect(safe.pendingProposals.map((proposal) => proposal.safeTxHash)).toEqual([
      proposed.proposal.safeTxHash,
    ])

    const executed = await treasurer.confirmSafeTransaction(deployed.address, {
      safeTxHash: proposed.proposal.safeTxHash,
      from: owner2,
    })
    expect(executed).toMatchObject({
      status: 'executed',
      confirmations: 2,
      transaction: { status: 'confirmed' },
    })
    expect(executed.hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await treasurer.getSafe(deployed.address)).safe).toMatchObject({
      nonce: '1',
      pendingProposals: [],
    })
    await expectHttpError(treasurer.getSafe(zeroAddress), 'not_found', 404)
  })
})

describe('identity and ENS through the client', () => {
  it('registers an identity, reads it back, lists it, and refuses a bad agentId', async () => {
    const created = await agent.registerIdentity(
      { walletAddress: wallet, agentName: 'trader', agentType: 'trading', capabilities: ['swap'] },
      { idempotencyKey: 'id1' },
    )
    expect(created.status).toBe('registered')
    if (created.status !== 'registered') return
    const { agentId, registrationId } = created.identity

    expect((await agent.getIdentity(agentId)).identity).toMatchObject({
      agentId,
      walletBound: true,
      onChain: { agentWallet: wallet },
    })
    expect((await agent.listIdentities()).identities.map((identity) => identity.agentId)).toEqual([agentId])
    expect((await agent.identitiesOfWallet(wallet)).count).toBe(1)
    expect((await agent.getIdentityRegistration(registrationId)).registration.status).toBe('registered')
    await expectHttpError(agent.getIdentity('abc'), 'validation_failed', 400)
    await expectHttpError(agent.getIdentity('424242'), 'not_found', 404)
  })

  it('checks a name, registers it (202 is a result), resolves both ways, and refuses an invalid name', async () => {
    const name = `client-${Date.now().toString(36)}.eth`
    expect(await agent.checkEnsName(name)).toMatchObject({ name, valid: true, available: true })

    const started = await agent.registerEnsName({ name, wallet, setReverse: true })
    expect(started.status).toBe('committing')
    await expect
      .poll(async () => (await agent.getEnsRegistration(started.registration.id)).registration.status, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe('registered')

    expect(await agent.resolveEnsName(name)).toMatchObject({ name, address: wallet })
    expect(await agent.reverseEnsName(wallet)).toMatchObject({ address: wallet, name })
    expect((await agent.listEnsNames()).names.map((entry) => entry.name)).toContain(name)
    expect((await agent.checkEnsName(name)).available).toBe(false)
    await expectHttpError(agent.checkEnsName('ab.eth'), 'validation_failed', 400)
    await expectHttpError(agent.resolveEnsName('nobody-has-this-name-yet.eth'), 'not_found', 404)
  })
})

// Last in the file: a live subscription would queue deliveries for the events of later tests.
describe('webhooks through the client', () => {
  it('subscribes, lists, reads the delivery log, and deletes; agents and bad input are refused', async () => {
    // A public literal address: the server resolves no DNS for it, and nothing is delivered before the delete.
    const url = 'https://192.0.2.10/hooks/agentwallet'
    const { subscription, secret } = await admin.subscribeWebhook({ url, events: ['tx.confirmed'] })
    expect(secret).toMatch(/^whsec_/)
    expect(subscription).toMatchObject({ url, events: ['tx.confirmed'], status: 'active' })
    expect((await admin.listWebhooks()).subscriptions.map((entry) => entry.id)).toEqual([subscription.id])
    expect(JSON.stringify(await admin.listWebhooks())).not.toContain(secret)
    expect(await admin.listWebhookDeliveries({ subscriptionId: subscription.id })).toMatchObject({ count: 0 })
    expect(await admin.listWebhookHistory({ status: 'dead' })).toMatchObject({ count: 0, deliveries: [] })

    await expectHttpError(admin.retryWebhookDelivery('whd_nope_1'), 'not_found', 404)
    await expectHttpError(
      admin.subscribeWebhook({ url: 'not a url', events: ['*'] }),
      'validation_failed',
      400,
    )
    await expectHttpError(agent.listWebhooks(), 'forbidden', 403)

    expect(await admin.deleteWebhook(subscription.id)).toMatchObject({ deleted: subscription.id })
    expect((await admin.listWebhooks()).count).toBe(0)
    await expectHttpError(admin.deleteWebhook(subscription.id), 'not_found', 404)
  })
})
