import { type Address, type Hex, parseEther, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

let t: TestServer
let agentKey: string
let wallet: Address
let usdc: Address

beforeAll(async () => {
  t = await startTestServer()
  usdc = t.devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  agentKey = (await t.call('POST', '/api-keys', { body: { name: 'trader', role: 'agent' } })).body.key
  wallet = (await t.call('POST', '/wallet/create', { key: agentKey, body: { agentName: 'trader' } })).body
    .wallet.address
  await t.devnet.faucet(wallet, parseEther('20'))
})
afterAll(async () => {
  await t?.close()
  await t?.devnet.close()
})

const balance = (address: Address) =>
  t.devnet.provider.request({ method: 'eth_getBalance', params: [address, 'latest'] }).then(BigInt)

describe('DeFi over HTTP', () => {
  it('quotes, then swaps ETH for USDC at the best venue with the caller’s only wallet', async () => {
    const quote = await t.call('GET', `/defi/quote?fromToken=ETH&toToken=${usdc}&amount=1`, { key: agentKey })
    expect(quote.status).toBe(200)
    expect(quote.body).toMatchObject({ success: true, best: { venue: 'sushiswap' } })
    expect(quote.body.quotes.map((q: { venue: string }) => q.venue).sort()).toEqual([
      'sushiswap',
      'uniswap-v2',
      'uniswap-v3',
    ])

    const swapped = await t.call('POST', '/defi/swap', {
      key: agentKey,
      body: { fromToken: 'ETH', toToken: usdc, amount: '1' },
    })
    expect(swapped.status).toBe(200)
    expect(swapped.body).toMatchObject({
      success: true,
      status: 'confirmed',
      venue: 'sushiswap',
      wallet,
      amountIn: '1',
      amountOutRaw: quote.body.best.amountOutRaw,
      allowanceTransaction: null,
      transaction: { kind: 'swap', status: 'confirmed', amount: '1', asset: { address: 'native' } },
    })
    expect(swapped.body.hash).toBe(swapped.body.transaction.hash)
  })

  it('answers slippage, unknown fields and unknown protocols with the envelope', async () => {
    const slippage = await t.call('POST', '/defi/swap', {
      key: agentKey,
      body: { fromToken: 'ETH', toToken: usdc, amount: '1', minAmountOut: '1000000' },
    })
    expect(slippage.status).toBe(422)
    expect(slippage.body).toMatchObject({ success: false, error: { code: 'slippage_exceeded' } })
    const typo = await t.call('POST', '/defi/swap', {
      key: agentKey,
      body: { fromToken: 'ETH', toToken: usdc, amount: '1', slipage: 10 },
    })
    expect(typo.status).toBe(400)
    expect(typo.body.error.code).toBe('validation_failed')
    const protocol = await t.call('POST', '/defi/stake', {
      key: agentKey,
      body: { protocol: 'rocketpool', amount: '1' },
    })
    expect(protocol.status).toBe(400)
    expect(protocol.body.error).toMatchObject({
      code: 'unsupported_protocol',
      details: { supported: ['lido'] },
    })
  })

  it('stakes with lido and reads prices with per-token errors', async () => {
    const staked = await t.call('POST', '/defi/stake', {
      key: agentKey,
      body: { protocol: 'lido', amount: '1.5' },
    })
    expect(staked.status).toBe(200)
    expect(staked.body).toMatchObject({
      status: 'confirmed',
      received: { amount: '1.5' },
      transaction: { kind: 'stake' },
    })

    const prices = await t.call('GET', '/defi/prices?tokens=ETH,USDC,NOPE', { key: agentKey })
    expect(prices.status).toBe(200)
    expect(prices.body.prices).toMatchObject([
      { token: 'ETH', price: '3000', currency: 'USD', source: { type: 'chainlink', pair: 'ETH/USD' } },
      { token: 'USDC', price: '1' },
      { token: 'NOPE', error: { code: 'not_found' } },
    ])
    expect((await t.call('GET', '/defi/prices', { key: agentKey })).body.error.code).toBe('validation_failed')
  })
})

describe('multisig over HTTP', () => {
  it('deploys a 2-of-3 Safe, proposes, refuses a non-owner, and executes with an outside owner’s signature', async () => {
    const key = (await t.call('POST', '/api-keys', { body: { name: 'treasurer', role: 'agent' } })).body.key
    const create = async (agentName: string) =>
      (await t.call('POST', '/wallet/create', { key, body: { agentName } })).body.wallet.address as Address
    const [owner1, owner2] = [await create('o1'), await create('o2')]
    await t.devnet.faucet(owner1, parseEther('5'))
    const outsider = privateKeyToAccount(generatePrivateKey())

    const invalid = await t.call('POST', '/multisig/deploy', {
      key,
      body: { owners: [owner1, owner2], threshold: 3, from: owner1 },
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body.error.code).toBe('validation_failed')

    const deployed = await t.call('POST', '/multisig/deploy', {
      key,
      body: { owners: [owner1, owner2, outsider.address], threshold: 2, from: owner1 },
    })
    expect(deployed.status).toBe(201)
    expect(deployed.body).toMatchObject({
      success: true,
      status: 'deployed',
      threshold: 2,
      transaction: { kind: 'multisig' },
    })
    const safe = deployed.body.address as Address
    await t.devnet.faucet(safe, parseEther('1'))

    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const proposed = await t.call('POST', `/multisig/${safe}/propose`, {
      key,
      body: { from: owner1, to: recipient, value: '0.4' },
    })
    expect(proposed.status).toBe(201)
    expect(proposed.body).toMatchObject({
      status: 'pending',
      confirmations: 1,
      threshold: 2,
      transaction: null,
    })
    const safeTxHash = proposed.body.proposal.safeTxHash as Hex

    const read = await t.call('GET', `/multisig/${safe}`, { key })
    expect(read.status).toBe(200)
    expect(read.body.safe).toMatchObject({ address: safe, threshold: 2, nonce: '0' })
    expect(read.body.safe.pendingProposals.map((p: { safeTxHash: string }) => p.safeTxHash)).toEqual([
      safeTxHash,
    ])

    const stranger = privateKeyToAccount(generatePrivateKey())
    const refused = await t.call('POST', `/multisig/${safe}/confirm`, {
      key,
      body: { safeTxHash, signature: await stranger.sign({ hash: safeTxHash }) },
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe('forbidden')
    expect(await balance(recipient)).toBe(0n)

    const signature = await outsider.sign({ hash: safeTxHash })
    const executed = await t.call('POST', `/multisig/${safe}/confirm`, {
      key,
      body: { safeTxHash, signature },
    })
    expect(executed.status).toBe(200)
    expect(executed.body).toMatchObject({
      status: 'executed',
      confirmations: 2,
      transaction: { kind: 'multisig', status: 'confirmed' },
    })
    expect(executed.body.hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await balance(recipient)).toBe(parseEther('0.4'))
    expect((await t.call('GET', `/multisig/${safe}`, { key })).body.safe).toMatchObject({
      nonce: '1',
      pendingProposals: [],
    })
    expect((await t.call('GET', `/multisig/${zeroAddress}`, { key })).status).toBe(404)
  })
})
