import type { AgentWallet, TransactionView } from '@agentwallet/core'
import { type Devnet, fiatTokenAbi } from '@agentwallet/devnet'
import {
  type Address,
  createWalletClient,
  custom,
  erc20Abi,
  type Hex,
  type PublicClient,
  parseEther,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  approver,
  eventsOf,
  freshAddress,
  publicClientOf,
  storedTransaction,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'
import {
  type FacilitatorBehaviour,
  type PaidRoute,
  startX402ResourceServer,
  type X402ResourceServer,
} from '../helpers/x402ResourceServer.js'

let devnet: Devnet
let aw: AgentWallet
// The service's clock runs `skew` ms ahead of the wall clock once a test moves the devnet's time.
let skew = 0
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  webhooks: { allowPrivateTargets: ['127.0.0.0/8'] },
  now: () => new Date(Date.now() + skew),
})

const price = 10_000n // 0.01 USDC, $0.01 at the devnet's USDC/USD feed
/** A USD budget that one payment fills: the operator's "three calls spent three times the limit". */
const oneCallBudget = [{ id: 'one-cent', type: 'spend_limit', asset: 'usd', max: '0.01', window: '24h' }]
let usdc: Address
let client: PublicClient
const servers: X402ResourceServer[] = []

beforeAll(() => {
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  client = publicClientOf(devnet)
})
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

/** A resource server on the devnet whose facilitator behaves as `facilitator`, asking `price` for a fresh payee. */
async function serving(facilitator: FacilitatorBehaviour, route: Partial<PaidRoute> = {}) {
  const payee = freshAddress()
  const server = await startX402ResourceServer(
    devnet,
    usdc,
    [{ path: '/report', amount: price, payTo: payee, ...route }],
    { facilitator },
  )
  servers.push(server)
  return { payee, url: `${server.url}/report`, server }
}

/** A wallet holding USDC (and `eth`, for gas of its own calls) under `rules`. */
async function payingWallet(rules: unknown[], eth = '0'): Promise<Address> {
  const { wallet } = await aw.createWallet({ agentName: 'x402-settlement' })
  await devnet.mintToken(usdc, wallet.address, parseUnits('1', 6))
  if (eth !== '0') await devnet.faucet(wallet.address, parseEther(eth))
  await aw.updatePolicyRules({ wallet: wallet.address, rules })
  return wallet.address
}

function balanceOf(address: Address): Promise<bigint> {
  return client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
}

/** What a call failed with (the test fails if it succeeded). */
async function failureOf(
  call: Promise<unknown>,
): Promise<{ code: string; details: Record<string, unknown> }> {
  const outcome = await call.then(
    (answer) => ({ answer }),
    (error: unknown) => ({ error }),
  )
  if (!('error' in outcome))
    throw new Error(`expected a failure, got ${JSON.stringify(outcome.answer).slice(0, 300)}`)
  return outcome.error as { code: string; details: Record<string, unknown> }
}

/** The record of a payment, once the tracker has moved it out of `queued`. */
async function settledByTracker(id: string): Promise<TransactionView> {
  return vi.waitFor(
    async () => {
      const { transaction } = await aw.getTransaction({ transaction: id })
      if (transaction.status === 'queued') throw new Error(`payment ${id} still queued`)
      return transaction
    },
    { timeout: 10_000, interval: 20 },
  )
}

/** The signed authorization a payment keeps on its record. */
async function authorizationOf(
  id: string,
): Promise<{ authorizer: Address; nonce: Hex; validBefore: string }> {
  const record = await storedTransaction(aw, id)
  return record.meta?.authorization as { authorizer: Address; nonce: Hex; validBefore: string }
}

function authorizationState(authorizer: Address, nonce: Hex): Promise<boolean> {
  return client.readContract({
    address: usdc,
    abi: fiatTokenAbi,
    functionName: 'authorizationState',
    args: [authorizer, nonce],
  })
}

/** The `transferWithAuthorization` call a payee can make with the payment header it received. */
function transferCallOf(header: string) {
  const { payload } = JSON.parse(Buffer.from(header, 'base64').toString()) as {
    payload: { authorization: Record<string, string>; signature: Hex }
  }
  const a = payload.authorization
  return {
    address: usdc,
    abi: fiatTokenAbi,
    functionName: 'transferWithAuthorization',
    args: [
      a.from as Address,
      a.to as Address,
      BigInt(a.value!),
      BigInt(a.validAfter!),
      BigInt(a.validBefore!),
      a.nonce as Hex,
      payload.signature,
    ],
  } as const
}

/** The tx that used this authorization, from the token's AuthorizationUsed log. */
async function usedBy(authorizer: Address, nonce: Hex): Promise<Hex | undefined> {
  const logs = await client.getContractEvents({
    address: usdc,
    abi: fiatTokenAbi,
    eventName: 'AuthorizationUsed',
    args: { authorizer, nonce },
    fromBlock: 0n,
  })
  return logs[0]?.transactionHash
}

describe('x402 payments settled from the chain', () => {
  it('a payee that settles on chain and then answers 402 is recorded settled, announced, and counted by a USD limit', async () => {
    const { payee, url } = await serving('settles_then_fails')
    const wallet = await payingWallet(oneCallBudget)
    const settled = eventsOf(aw, 'payment.settled')
    const undelivered = eventsOf(aw, 'payment.settled_without_delivery')

    // The operator's three calls: the first is taken, the limit then holds (on main all three paid).
    const [first, second, third] = [
      await failureOf(aw.fetch(url, {}, { wallet })),
      await failureOf(aw.fetch(url, {}, { wallet })),
      await failureOf(aw.fetch(url, {}, { wallet })),
    ]
    expect(await balanceOf(payee)).toBe(price)
    for (const denied of [second, third])
      expect(denied).toMatchObject({ code: 'policy_blocked', details: { ruleId: 'one-cent' } })
    expect(first).toMatchObject({ code: 'payment_not_delivered', details: { status: 402 } })
    const id = first.details.transactionId as string
    const { authorizer, nonce } = await authorizationOf(id)
    const hash = await usedBy(authorizer, nonce)
    expect(hash).toBeDefined()
    const { transaction } = await aw.getTransaction({ transaction: id })
    expect(transaction).toMatchObject({
      status: 'confirmed',
      hash,
      meta: { delivered: false, undelivered: { status: 402 } },
    })
    expect(undelivered.map((event) => event.data)).toEqual([
      expect.objectContaining({ transactionId: id, hash, payee, responseStatus: 402 }),
    ])
    expect(settled.some((event) => (event.data as { transactionId: string }).transactionId === id)).toBe(true)
    const { transactions } = await aw.listHistory({ wallet })
    expect(transactions.map((tx) => tx.status).sort()).toEqual(['blocked', 'blocked', 'confirmed'])
  })

  it('a payee that takes the money while verifying and then answers 500 is recorded settled without delivery', async () => {
    const { payee, url } = await serving('settles_at_verify', { status: 500 })
    const wallet = await payingWallet([])
    const failure = await failureOf(aw.fetch(url, {}, { wallet, idempotencyKey: 'x402-took-and-500' }))
    expect(failure).toMatchObject({ code: 'payment_not_delivered', details: { status: 500 } })
    const id = failure.details.transactionId as string
    const { authorizer, nonce } = await authorizationOf(id)
    const { transaction } = await aw.getTransaction({ transaction: id })
    expect(transaction).toMatchObject({ status: 'confirmed', hash: await usedBy(authorizer, nonce) })
    expect(await balanceOf(payee)).toBe(price)
    // The same key answers the same: paid, not delivered, and nothing is paid again.
    expect(await failureOf(aw.fetch(url, {}, { wallet, idempotencyKey: 'x402-took-and-500' }))).toMatchObject(
      { code: 'payment_not_delivered', details: { transactionId: id } },
    )
    expect(await balanceOf(payee)).toBe(price)
  })

  it('an approved payment whose payee settles and answers 402 is answered settled, not failed', async () => {
    const { url } = await serving('settles_then_fails')
    const wallet = await payingWallet([{ type: 'require_approval', asset: 'usd', above: '0.005' }])
    const paused = withStatus(await aw.fetch(url, {}, { wallet }), 'pending_approval')
    const { transaction } = await aw.as(approver).approve({ approvalId: paused.approval.id })
    const { authorizer, nonce } = await authorizationOf(transaction.id)
    expect(transaction).toMatchObject({
      status: 'confirmed',
      hash: await usedBy(authorizer, nonce),
      meta: { delivered: false },
    })
  })

  it('a refused authorization stays reserved and is cancelled on chain: the reservation is released once mined', async () => {
    const { url, server } = await serving('settles', { status: 500 })
    const wallet = await payingWallet(oneCallBudget, '1')
    const refused = await failureOf(aw.fetch(url, {}, { wallet }))
    expect(refused).toMatchObject({
      code: 'payment_failed',
      details: { status: 500, transactionStatus: 'queued' },
    })
    const id = refused.details.transactionId as string
    // Still reserved: the payee holds a usable authorization, so the budget has no room.
    expect(await failureOf(aw.fetch(url, {}, { wallet }))).toMatchObject({ code: 'policy_blocked' })

    const cancelled = await aw.cancelPayment({ payment: id })
    expect(cancelled.payment).toMatchObject({ id, status: 'queued' })
    expect(cancelled.transaction).toMatchObject({ kind: 'contract_call', to: usdc, amountRaw: '0' })
    const mined = await aw.waitForTransaction({ transaction: cancelled.transaction.id })
    expect(mined.transaction.status).toBe('confirmed')
    const payment = await settledByTracker(id)
    expect(payment).toMatchObject({ status: 'failed', error: { code: 'authorization_cancelled' } })

    // Unusable on chain: spent in the token's books, and the payee's copy of it reverts.
    const { authorizer, nonce } = await authorizationOf(id)
    expect(await authorizationState(authorizer, nonce)).toBe(true)
    const payeeCall = transferCallOf(server.paymentHeaders['/report']![0]!)
    await expect(
      client.simulateContract({ account: devnet.accounts[8]!.address, ...payeeCall }),
    ).rejects.toThrow()
    // Released: the budget has room again (the next payment is judged, and refused by the payee).
    expect(await failureOf(aw.fetch(url, {}, { wallet }))).toMatchObject({ code: 'payment_failed' })
  })

  it('another agent that asks to cancel a payment is told it is not found, and nothing of whose it is', async () => {
    const { url } = await serving('settles', { status: 500 })
    const wallet = await payingWallet(oneCallBudget, '1')
    const refused = await failureOf(aw.fetch(url, {}, { wallet }))
    const id = refused.details.transactionId as string
    const other = aw.as({ tenantId: 'default', id: 'another-agent', role: 'agent' })
    const answer = await failureOf(other.cancelPayment({ payment: id }))
    expect(answer).toMatchObject({ code: 'not_found', details: { payment: id } })
    expect(JSON.stringify(answer).toLowerCase()).not.toContain(wallet.slice(2).toLowerCase())
    // As reading it by id answers: the same refusal, the same silence.
    const read = await failureOf(other.getTransaction({ transaction: id }))
    expect(read).toMatchObject({ code: 'not_found' })
    expect(JSON.stringify(read).toLowerCase()).not.toContain(wallet.slice(2).toLowerCase())
  })

  it('a payee that refuses, then uses the authorization later, is settled by the tracker (without delivery)', async () => {
    const { payee, url, server } = await serving('refuses')
    const wallet = await payingWallet(oneCallBudget)
    const undelivered = eventsOf(aw, 'payment.settled_without_delivery')
    const refused = await failureOf(aw.fetch(url, {}, { wallet }))
    expect(refused).toMatchObject({ code: 'payment_failed', details: { status: 402 } })
    const id = refused.details.transactionId as string
    // The payee keeps the header and submits it itself, after answering 402.
    const payeeClient = createWalletClient({
      account: privateKeyToAccount(devnet.accounts[7]!.privateKey),
      chain: devnet.chain,
      transport: custom(devnet.provider),
    })
    const hash = await payeeClient.writeContract(transferCallOf(server.paymentHeaders['/report']![0]!))
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
    const payment = await settledByTracker(id)
    expect(payment).toMatchObject({ status: 'confirmed', hash, meta: { delivered: false } })
    expect(await balanceOf(payee)).toBe(price)
    expect(undelivered.map((event) => event.data)).toEqual([
      expect.objectContaining({ transactionId: id, hash, responseStatus: 402 }),
    ])
    expect(await failureOf(aw.fetch(url, {}, { wallet }))).toMatchObject({ code: 'policy_blocked' })
  })

  it('a refusing facilitator: the payment fails for the caller, stays reserved until validBefore, then the tracker releases it', async () => {
    const { payee, url } = await serving('refuses', { maxTimeoutSeconds: 30 })
    const wallet = await payingWallet(oneCallBudget)
    const refused = await failureOf(aw.fetch(url, {}, { wallet }))
    expect(refused).toMatchObject({ code: 'payment_failed', details: { status: 402 } })
    const id = refused.details.transactionId as string
    expect(await balanceOf(payee)).toBe(0n)
    expect(await balanceOf(wallet)).toBe(parseUnits('1', 6))
    expect(await failureOf(aw.fetch(url, {}, { wallet }))).toMatchObject({ code: 'policy_blocked' })
    expect((await aw.getTransaction({ transaction: id })).transaction.status).toBe('queued')

    // Past validBefore on the chain and on the service's clock: it can never be used.
    const { validBefore } = await authorizationOf(id)
    const head = await client.getBlock()
    const chainSeconds = Math.max(0, Number(BigInt(validBefore) - head.timestamp)) + 5
    await devnet.increaseTime(chainSeconds)
    await devnet.mine()
    skew = Number(validBefore) * 1000 + 5_000 - Date.now()
    const payment = await settledByTracker(id)
    expect(payment).toMatchObject({ status: 'failed', error: { code: 'authorization_expired' } })
    expect(await balanceOf(payee)).toBe(0n)
    // Released: the budget has room again.
    expect(await failureOf(aw.fetch(url, {}, { wallet }))).toMatchObject({ code: 'payment_failed' })
  })
})
