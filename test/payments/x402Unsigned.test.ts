import {
  type AgentWallet,
  type KeyVault,
  memoryStorage,
  type Storage,
  unsignedPaymentWaitMs,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, erc20Abi, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  agentWalletOn,
  eventsOf,
  freshAddress,
  publicClientOf,
  startDevnet,
} from '../helpers/devnetAgentWallet.js'
import { startX402ResourceServer, type X402ResourceServer } from '../helpers/x402ResourceServer.js'

const price = 10_000n // 0.01 USDC
const masterKey = '37'.repeat(32)
let devnet: Devnet
let usdc: Address
let resources: X402ResourceServer
let payee: Address
// The services' clock runs `skew` ms ahead of the wall clock once a test moves it past the bound.
let skew = 0
const now = () => new Date(Date.now() + skew)
const closers: AgentWallet[] = []

beforeAll(async () => {
  devnet = await startDevnet()
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  payee = freshAddress()
  resources = await startX402ResourceServer(devnet, usdc, [{ path: '/paid', amount: price, payTo: payee }])
})
afterAll(async () => {
  for (const aw of closers) await aw.close()
  await resources?.close()
  await devnet?.close()
})

/** An AgentWallet on `storage` whose clock is `now`, reaching the resource server on loopback. */
async function serviceOn(storage: Storage, config: Parameters<typeof agentWalletOn>[1] = {}) {
  const aw = await agentWalletOn(devnet, {
    storage,
    masterKey,
    now,
    webhooks: { allowPrivateTargets: ['127.0.0.0/8'] },
    ...config,
  })
  closers.push(aw)
  return aw
}

/** A wallet holding USDC whose budget is one payment: a second fits only once the first is released. */
async function onePaymentWallet(aw: AgentWallet): Promise<Address> {
  const { wallet } = await aw.createWallet({ agentName: 'x402-unsigned' })
  await devnet.mintToken(usdc, wallet.address, parseUnits('1', 6))
  await aw.updatePolicyRules({
    wallet: wallet.address,
    rules: [{ id: 'one-payment', type: 'spend_limit', asset: usdc, max: '0.01', window: '24h' }],
  })
  return wallet.address
}

/** A vault whose signing waits for `open` (a process between accepting and signing a payment). */
function gatedVault(vault: KeyVault) {
  let open: () => void = () => {}
  let reach: () => void = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  const reached = new Promise<void>((resolve) => {
    reach = resolve
  })
  const gated: KeyVault = {
    ...vault,
    async getSigner(address) {
      reach()
      await opened
      return vault.getSigner(address)
    },
  }
  return { vault: gated, reached, open }
}

/** What a call failed with (the test fails if it succeeded). */
async function failureOf(
  call: Promise<unknown>,
): Promise<{ code: string; details: Record<string, unknown> }> {
  const outcome = await call.then(
    (answer) => ({ answer }),
    (error: unknown) => ({ error }),
  )
  if (!('error' in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.answer)}`)
  return outcome.error as { code: string; details: Record<string, unknown> }
}

function balanceOf(address: Address): Promise<bigint> {
  return publicClientOf(devnet).readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  })
}

describe('an x402 payment accepted but never signed', () => {
  it('is released by the tracker once the bound passes after its process died before signing, freeing its budget', async () => {
    skew = 0
    const storage = memoryStorage()
    const base = await serviceOn(storage, { track: false })
    const wallet = await onePaymentWallet(base)
    // Process A accepts the payment (reserving its budget) and dies while its vault is signing.
    const { vault, reached } = gatedVault(base.context.vault)
    const dying = await serviceOn(storage, { vault, track: false })
    void dying.fetch(`${resources.url}/paid`, {}, { wallet }).catch(() => {})
    await reached
    const afterCrash = memoryStorage({ snapshot: storage.snapshot() })
    const [accepted] = await afterCrash.query('transactions', { where: { kind: 'x402_payment' } })
    expect(accepted).toMatchObject({ status: 'queued' })
    expect(accepted?.meta?.authorization).toBeUndefined()

    // Process B starts on what was durable: within the bound the payment is left as it is (reserved).
    const restarted = await serviceOn(afterCrash, { trackerIntervalMs: 20 })
    const failed = eventsOf(restarted, 'tx.failed')
    expect((await restarted.getTransaction({ transaction: accepted!.id })).status).toBe('queued')
    const held = await failureOf(restarted.fetch(`${resources.url}/paid`, {}, { wallet }))
    expect(held).toMatchObject({ code: 'policy_blocked', details: { ruleId: 'one-payment' } })

    // Past the bound, the tracker releases it: failed, nothing signed, announced.
    skew = unsignedPaymentWaitMs + 1_000
    const released = await vi.waitFor(
      async () => {
        const { transaction } = await restarted.getTransaction({ transaction: accepted!.id })
        if (transaction.status === 'queued') throw new Error('still queued')
        return transaction
      },
      { timeout: 10_000, interval: 20 },
    )
    expect(released).toMatchObject({ status: 'failed', hash: null, error: { code: 'payment_abandoned' } })
    expect(released.meta?.authorization).toBeUndefined()
    expect(failed.map((event) => event.data)).toEqual([
      expect.objectContaining({ transactionId: accepted!.id }),
    ])

    // Its reservation no longer counts: a payment that fits only without it is paid.
    const paid = await restarted.fetch(`${resources.url}/paid`, {}, { wallet })
    expect(paid).toMatchObject({ status: 'completed', response: { status: 200 } })
    expect(await balanceOf(payee)).toBe(price)
  })

  it('is not signed by a live request once the tracker released it meanwhile: nothing leaves, one release', async () => {
    skew = 0
    const storage = memoryStorage()
    const base = await serviceOn(storage, { track: false })
    const wallet = await onePaymentWallet(base)
    const before = await balanceOf(payee)
    const headersBefore = resources.paymentHeaders['/paid']?.length ?? 0
    const { vault, reached, open } = gatedVault(base.context.vault)
    const live = await serviceOn(storage, { vault, track: false })
    const failed = eventsOf(live, 'tx.failed')
    const paying = failureOf(live.fetch(`${resources.url}/paid`, {}, { wallet }))
    await reached
    const [accepted] = await storage.query('transactions', { where: { kind: 'x402_payment', from: wallet } })

    // The request is slower than the bound (a vault that hangs): a tracker pass releases its payment.
    skew = unsignedPaymentWaitMs + 1_000
    await live.reconcile()
    expect((await live.getTransaction({ transaction: accepted!.id })).transaction).toMatchObject({
      status: 'failed',
      error: { code: 'payment_abandoned' },
    })

    // Then its signing step goes on: it sees the release under the wallet lock and sends nothing.
    open()
    expect(await paying).toMatchObject({
      code: 'payment_failed',
      details: { transactionId: accepted!.id, cause: 'payment_abandoned' },
    })
    const { transaction } = await live.getTransaction({ transaction: accepted!.id })
    expect(transaction).toMatchObject({ status: 'failed', error: { code: 'payment_abandoned' } })
    expect(transaction.meta?.authorization).toBeUndefined()
    expect(
      failed.filter((event) => (event.data as { transactionId: string }).transactionId === accepted!.id),
    ).toHaveLength(1)
    expect(resources.paymentHeaders['/paid']?.length ?? 0).toBe(headersBefore)
    expect(await balanceOf(payee)).toBe(before)
  })
})
