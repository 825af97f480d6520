import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { type AgentWallet, findWallet, submitIntent } from '@agentwallet/core'
import { type Devnet, fiatTokenAbi } from '@agentwallet/devnet'
import { createApp, createLogger, type RunningServer } from '@agentwallet/koa'
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  type PublicClient,
  parseEther,
  parseEventLogs,
  parseUnits,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  approver,
  eventsOf,
  freshAddress,
  publicClientOf,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'
import { startX402ResourceServer, type X402ResourceServer } from '../helpers/x402ResourceServer.js'

let devnet: Devnet
let aw: AgentWallet
// The resource servers listen on loopback, which outbound requests may reach only when allowed.
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  webhooks: { allowPrivateTargets: ['127.0.0.0/8'] },
})

const price = 10_000n // 0.01 USDC
const adminKey = 'aw_x402_test_admin_key_0123456789abcdef'
let usdc: Address
let payee: Address
let client: PublicClient
let resources: X402ResourceServer
let http: RunningServer

beforeAll(async () => {
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  payee = freshAddress()
  client = publicClientOf(devnet)
  resources = await startX402ResourceServer(devnet, usdc, [
    { path: '/paid', amount: price, payTo: payee },
    { path: '/dear', amount: parseUnits('5', 6), payTo: payee },
    { path: '/approved', amount: price, payTo: payee },
    { path: '/over-http', amount: price, payTo: payee },
    { path: '/broken', amount: price, payTo: payee, status: 500 },
  ])
  await aw.bootstrapAdmin({ adminKey })
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() })
  http = await createApp({
    agentWallet: aw,
    logger: createLogger({ destination: quiet }),
    rateLimit: false,
  }).listen({
    port: 0,
  })
})
afterAll(async () => {
  await http?.close()
  await resources?.close()
})

/** A wallet holding USDC and no ETH at all: the payee's facilitator pays the gas of settlement. */
async function payingWallet(rules: unknown[] = []): Promise<Address> {
  const { wallet } = await aw.createWallet({ agentName: 'x402-payer' })
  await devnet.mintToken(usdc, wallet.address, parseUnits('10', 6))
  await aw.updatePolicyRules({ wallet: wallet.address, rules })
  return wallet.address
}

function balanceOf(address: Address): Promise<bigint> {
  return client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
}

/** The EIP-3009 nonce a settlement transaction used, from its AuthorizationUsed log. */
async function nonceOf(hash: Hex): Promise<Hex> {
  const receipt = await client.getTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  const [used] = parseEventLogs({ abi: fiatTokenAbi, logs: receipt.logs, eventName: 'AuthorizationUsed' })
  if (!used) throw new Error(`settlement ${hash} used no EIP-3009 authorization`)
  return used.args.nonce
}

describe('x402 payments', () => {
  it('pays a 402 resource end to end: the token moves on chain, settled, recorded and announced', async () => {
    const wallet = await payingWallet()
    const before = { payer: await balanceOf(wallet), payee: await balanceOf(payee) }
    const settledEvents = eventsOf(aw, 'payment.settled')
    const paid = withStatus(
      await aw.fetch(`${resources.url}/paid`, {}, { wallet, maxAmount: '0.05' }),
      'completed',
    )
    expect(paid.response.status).toBe(200)
    expect(JSON.parse(paid.response.body)).toEqual({ resource: '/paid', served: 1 })
    const payment = paid.payment!
    expect(payment).toMatchObject({
      payee,
      resource: `${resources.url}/paid`,
      network: resources.network,
      amount: '0.01',
      amountRaw: price.toString(),
      asset: { address: usdc, symbol: 'USDC' },
    })
    expect(payment.transaction).toMatchObject({ kind: 'x402_payment', status: 'confirmed', to: payee })
    expect(payment.transaction.hash).toBe(payment.settlementTx)
    await nonceOf(payment.settlementTx as Hex)
    expect(await balanceOf(wallet)).toBe(before.payer - price)
    expect(await balanceOf(payee)).toBe(before.payee + price)

    const settled = settledEvents.find(
      (event) => (event.data as { transactionId?: string }).transactionId === payment.transaction.id,
    )
    expect(settled?.data).toMatchObject({
      payee,
      resource: `${resources.url}/paid`,
      amount: price.toString(),
      asset: 'USDC',
      hash: payment.settlementTx,
      status: 'confirmed',
    })
    const { transactions } = await aw.listHistory({ wallet })
    expect(transactions.map((tx) => [tx.kind, tx.status])).toEqual([['x402_payment', 'confirmed']])
  })

  it('pays a second request again, with a new nonce', async () => {
    const wallet = await payingWallet()
    const first = withStatus(await aw.fetch(`${resources.url}/paid`, {}, { wallet }), 'completed')
    const second = withStatus(await aw.fetch(`${resources.url}/paid`, {}, { wallet }), 'completed')
    expect(second.payment!.transaction.id).not.toBe(first.payment!.transaction.id)
    expect(second.payment!.settlementTx).not.toBe(first.payment!.settlementTx)
    expect(await nonceOf(second.payment!.settlementTx as Hex)).not.toBe(
      await nonceOf(first.payment!.settlementTx as Hex),
    )
    expect(await balanceOf(wallet)).toBe(parseUnits('10', 6) - 2n * price)
  })

  it('refuses a 402 asking more than maxAmount before anything is signed or recorded', async () => {
    const wallet = await payingWallet()
    const getSigner = vi.spyOn(aw.context.vault, 'getSigner')
    try {
      await expect(aw.fetch(`${resources.url}/dear`, {}, { wallet, maxAmount: '1' })).rejects.toMatchObject({
        code: 'payment_not_payable',
        details: { maxAmount: '1' },
      })
      expect(getSigner).not.toHaveBeenCalled()
    } finally {
      getSigner.mockRestore()
    }
    expect(resources.served['/dear']).toBe(0)
    expect((await aw.listHistory({ wallet })).transactions).toEqual([])
    expect(await balanceOf(wallet)).toBe(parseUnits('10', 6))
  })

  it('refuses a payee the policy does not allow (policy_blocked), unsigned', async () => {
    const wallet = await payingWallet([
      { id: 'known-payees', type: 'allow_recipients', addresses: [freshAddress()] },
    ])
    await expect(aw.fetch(`${resources.url}/paid`, {}, { wallet })).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'known-payees' },
    })
    const { transactions } = await aw.listHistory({ wallet })
    expect(transactions.map((tx) => [tx.kind, tx.status])).toEqual([['x402_payment', 'blocked']])
    expect(await balanceOf(wallet)).toBe(parseUnits('10', 6))
  })

  it('pauses a payment for approval (valued in USD), then completes the request once approved', async () => {
    const wallet = await payingWallet([
      { id: 'usd-hitl', type: 'require_approval', asset: 'usd', above: '0.005' },
    ])
    const paused = withStatus(
      await aw.fetch(`${resources.url}/approved`, {}, { wallet, idempotencyKey: 'x402-approved-1' }),
      'pending_approval',
    )
    expect(paused.transaction).toMatchObject({
      kind: 'x402_payment',
      status: 'pending_approval',
      usd: { value: '0.01' },
    })
    expect(resources.served['/approved']).toBe(0)
    expect(await balanceOf(wallet)).toBe(parseUnits('10', 6))

    const { transaction } = await aw.as(approver).approve({ approvalId: paused.approval.id })
    expect(transaction).toMatchObject({
      id: paused.transaction.id,
      status: 'confirmed',
      kind: 'x402_payment',
    })
    await nonceOf(transaction.hash!)
    expect(resources.served['/approved']).toBe(1)
    expect(await balanceOf(wallet)).toBe(parseUnits('10', 6) - price)

    // The same key answers the resource the approval paid for, without paying (or asking) again.
    const replayed = withStatus(
      await aw.fetch(`${resources.url}/approved`, {}, { wallet, idempotencyKey: 'x402-approved-1' }),
      'completed',
    )
    expect(JSON.parse(replayed.response.body)).toEqual({ resource: '/approved', served: 1 })
    expect(replayed.payment!.settlementTx).toBe(transaction.hash)
    expect(resources.served['/approved']).toBe(1)
    expect(resources.asked['/approved']).toBe(2) // the first call and the one after approval, no more
  })

  it('a paused payment needs only its token to be approved (no ETH), and a refused one stays reserved, unsettled', async () => {
    const wallet = await payingWallet([{ type: 'require_approval', asset: 'usd', above: '0.005' }])
    const paused = withStatus(await aw.fetch(`${resources.url}/broken`, {}, { wallet }), 'pending_approval')
    const funds = await aw.as(approver).checkApprovalFunds({ approvalId: paused.approval.id })
    expect(funds).toMatchObject({
      covered: true,
      native: { balance: '0', required: '0', gasIncluded: false },
      token: { symbol: 'USDC', balance: '10', required: '0.01' },
    })
    // The resource fails after payment is verified: the middleware settles nothing, but the payee
    // holds a usable authorization, so the payment stays reserved (x402Settlement.test.ts releases one).
    const { transaction } = await aw.as(approver).approve({ approvalId: paused.approval.id })
    expect(transaction).toMatchObject({ status: 'queued', error: null, hash: null })
    expect(transaction.meta?.authorization).toMatchObject({ payee: transaction.to, value: price.toString() })
    expect(resources.served['/broken']).toBe(1)
    expect(await balanceOf(wallet)).toBe(parseUnits('10', 6))

    await expect(
      aw.fetch(`${resources.url}/broken`, {}, { wallet: await payingWallet() }),
    ).rejects.toMatchObject({
      code: 'payment_failed',
      details: { status: 500 },
    })
  })

  it('pays over HTTP: POST /x402/fetch answers the resource and the payment', async () => {
    const wallet = await payingWallet()
    const answer = await fetch(`${http.url}/x402/fetch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
      body: JSON.stringify({ wallet, url: `${resources.url}/over-http`, maxAmount: '0.02' }),
    })
    const body = await answer.json()
    expect(answer.status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({
      success: true,
      status: 'completed',
      response: { status: 200 },
      payment: { payee, amountRaw: price.toString(), transaction: { status: 'confirmed' } },
    })
    expect(await balanceOf(payee)).toBeGreaterThanOrEqual(price)

    const refused = await fetch(`${http.url}/x402/fetch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
      body: JSON.stringify({ wallet, url: `${resources.url}/dear`, maxAmount: '0.02' }),
    })
    expect(refused.status).toBe(422)
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'payment_not_payable' } })
  })

  it('refuses, before signing, a requirement for another network (422) or an expired one (502)', async () => {
    const wallet = await payingWallet()
    const requirement = {
      scheme: 'exact',
      network: resources.network,
      asset: usdc,
      amount: price.toString(),
      payTo: payee,
      maxTimeoutSeconds: 60,
      extra: { name: 'USD Coin (devnet)', version: '2' },
    }
    const crafted = await answering402({
      '/mainnet': [{ ...requirement, network: 'eip155:1' }],
      '/expired': [{ ...requirement, maxTimeoutSeconds: 0 }],
    })
    const getSigner = vi.spyOn(aw.context.vault, 'getSigner')
    try {
      await expect(aw.fetch(`${crafted.url}/mainnet`, {}, { wallet })).rejects.toMatchObject({
        code: 'payment_not_payable',
        details: { requirements: [{ network: 'eip155:1' }] },
      })
      await expect(aw.fetch(`${crafted.url}/expired`, {}, { wallet })).rejects.toMatchObject({
        code: 'payment_requirements_invalid',
      })
      expect(getSigner).not.toHaveBeenCalled()
    } finally {
      getSigner.mockRestore()
      await crafted.close()
    }
    expect((await aw.listHistory({ wallet })).transactions).toEqual([])
  })

  it('refuses a resource on a special-purpose address the operator did not allow (SSRF), before any request', async () => {
    const wallet = await payingWallet()
    await expect(aw.fetch('http://[::1]:9/paid', {}, { wallet })).rejects.toMatchObject({
      code: 'validation_failed',
      details: { reason: 'private_address' },
    })
    await expect(aw.fetch('http://169.254.169.254/latest/meta-data', {}, { wallet })).rejects.toMatchObject({
      code: 'validation_failed',
      details: { reason: 'private_address' },
    })
  })

  it('never lets the tracker sign an x402 payment left queued (a crash mid-payment): it stays reserved, unsigned', async () => {
    const wallet = await payingWallet()
    await devnet.faucet(wallet, parseEther('1')) // gas it could sign the transfer with, were it resumed
    const draft = {
      kind: 'x402_payment' as const,
      chain: 'devnet',
      to: payee,
      asset: { address: usdc, symbol: 'USDC', decimals: 6 },
      amount: price,
      call: {
        to: usdc,
        value: 0n,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [payee, price] }),
      },
    }
    // Accepted and reserved, then the process "stops" before signing and sending the request.
    const record = await findWallet(aw.context, aw.principal, wallet)
    const accepted = await submitIntent(aw.context, aw.principal, record, draft)
    expect(accepted.transaction).toMatchObject({ status: 'queued', kind: 'x402_payment' })
    await aw.reconcile()
    const { transaction } = await aw.getTransaction({ transaction: accepted.transaction.id })
    expect(transaction).toMatchObject({ status: 'queued', hash: null, nonce: null })
    expect(await balanceOf(wallet)).toBe(parseUnits('10', 6))
  })

  it('answers a resource that asks for no payment as it is, paying nothing', async () => {
    const wallet = await payingWallet()
    const free = withStatus(await aw.fetch(`${resources.url}/free`, {}, { wallet }), 'completed')
    expect(free).toMatchObject({ response: { status: 200 }, payment: null })
    expect(JSON.parse(free.response.body)).toEqual({ free: true })
  })
})

/** A server on 127.0.0.1 answering 402 with these v2 requirements per path (hand-written headers). */
async function answering402(
  accepts: Record<string, unknown[]>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const paymentRequired = {
      x402Version: 2,
      resource: { url: `http://${request.headers.host}${request.url}` },
      accepts: accepts[request.url ?? ''] ?? [],
    }
    response.writeHead(402, {
      'content-type': 'application/json',
      'PAYMENT-REQUIRED': Buffer.from(JSON.stringify(paymentRequired)).toString('base64'),
    })
    response.end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
