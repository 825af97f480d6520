import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, encodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  approvalOf,
  approver,
  freshAddress,
  fundedWallet,
  storedTransaction,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'
import { countingCalls, resetFeeds, setFeedAnswer } from '../helpers/priceFeeds.js'

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

let usdc: Address
let dai: Address
beforeAll(() => {
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  dai = devnet.addressBook.tokens.find((token) => token.symbol === 'DAI')!.address
})
// Tests that move a feed put every feed back (a fresh round) so the next test prices at the start values.
let movedFeeds = false
afterEach(async () => {
  if (movedFeeds) await resetFeeds(devnet)
  movedFeeds = false
})

/** A funded wallet (10 ETH, 1000 USDC, 1000 DAI) with these rules of its own. */
async function walletWith(rules: unknown[], on: AgentWallet = aw) {
  const wallet = await fundedWallet(on, devnet, '10', 'usd-agent')
  await devnet.mintToken(usdc, wallet.address, parseUnits('1000', 6))
  await devnet.mintToken(dai, wallet.address, parseUnits('1000', 18))
  await on.updatePolicyRules({ wallet: wallet.address, rules })
  return wallet.address
}

type BlockedDetails = { transactionId: string; [field: string]: unknown }

/** The error a promise rejects with (the test fails if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<{ code: string; details: BlockedDetails }> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value).slice(0, 200)}`)
    },
    (error: { code: string; details: BlockedDetails }) => error,
  )
}

describe('budgets in US dollars', () => {
  it('values a native send at the ETH/USD feed, stores the value on the intent and shows it', async () => {
    const wallet = await walletWith([{ id: 'usd-cap', type: 'max_per_tx', asset: 'usd', max: '400' }])
    const sent = await aw.send({ wallet, to: freshAddress(), value: '0.1' })
    expect(sent.status).toBe('submitted')
    const feed = devnet.addressBook.priceFeeds['ETH/USD']
    const stored = await storedTransaction(aw, sent.transaction.id)
    expect(stored.usd).toEqual({
      value: '300',
      price: '3000',
      pair: 'ETH/USD',
      feed,
      roundId: expect.stringMatching(/^\d+$/),
      updatedAt: expect.any(String),
    })
    const { transaction } = await aw.getTransaction({ transaction: sent.transaction.id })
    expect(transaction.usd).toEqual(stored.usd)

    const blocked = await rejection(aw.send({ wallet, to: freshAddress(), value: '0.2' }))
    expect(blocked).toMatchObject({
      code: 'policy_blocked',
      details: {
        ruleId: 'usd-cap',
        ruleType: 'max_per_tx',
        asset: 'usd',
        limit: '400',
        requested: '600',
        usd: { value: '600', asset: 'native', symbol: 'ETH', amount: '0.2', price: '3000', feed },
      },
    })
    expect((await storedTransaction(aw, blocked.details.transactionId)).usd).toMatchObject({ value: '600' })
  })

  it('spend_limit in USD counts every asset the wallet moves, each at its own feed', async () => {
    const wallet = await walletWith([
      { id: 'daily-usd', type: 'spend_limit', asset: 'usd', max: '100', window: '24h' },
    ])
    const to = freshAddress()
    await aw.send({ wallet, to, value: '0.01' }) // 30 USD
    await aw.send({ wallet, to, value: '30', token: usdc })
    await aw.send({ wallet, to, value: '30', token: dai })
    const blocked = await rejection(aw.send({ wallet, to, value: '10.000001', token: usdc }))
    expect(blocked).toMatchObject({
      code: 'policy_blocked',
      details: {
        ruleId: 'daily-usd',
        spent: '90',
        requested: '10.000001',
        remaining: '10',
        usd: { symbol: 'USDC', value: '10.000001', pair: 'USDC/USD' },
      },
    })
    expect((await aw.send({ wallet, to, value: '10', token: dai })).status).toBe('submitted')
  })

  it('sums each past intent at the value stored when it was made, not at today’s price', async () => {
    const wallet = await walletWith([{ type: 'spend_limit', asset: 'usd', max: '100', window: '24h' }])
    await aw.send({ wallet, to: freshAddress(), value: '0.01' }) // 30 USD at 3000
    movedFeeds = true
    await setFeedAnswer(devnet, 'ETH/USD', 6000_00000000n)
    // 60 USD now: 30 + 60 fits; re-valued at 6000 the first would make it 120.
    const second = await aw.send({ wallet, to: freshAddress(), value: '0.01' })
    expect((await storedTransaction(aw, second.transaction.id)).usd).toMatchObject({
      value: '60',
      price: '6000',
    })
    await expect(aw.send({ wallet, to: freshAddress(), value: '0.0034' })).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { spent: '90', requested: '20.4' },
    })
  })

  it('require_approval above a dollar amount pauses, and the paused intent keeps its value', async () => {
    const wallet = await walletWith([{ type: 'require_approval', asset: 'usd', above: '250' }])
    expect((await aw.send({ wallet, to: freshAddress(), value: '250', token: usdc })).status).toBe(
      'submitted',
    )
    const paused = await aw.send({ wallet, to: freshAddress(), value: '0.1' })
    const approval = approvalOf(paused)
    expect(paused.transaction.usd).toMatchObject({ value: '300', price: '3000' })
    movedFeeds = true
    await setFeedAnswer(devnet, 'ETH/USD', 1000_00000000n)
    const { transaction } = await aw.as(approver).approve({ approvalId: approval.id })
    expect(transaction.status).toBe('submitted')
    expect(transaction.usd).toMatchObject({ value: '300', price: '3000' })
  })

  it('counts a swap’s input, a stake and a Safe payout', async () => {
    const wallet = await walletWith([{ id: 'usd-cap', type: 'max_per_tx', asset: 'usd', max: '100' }])
    await expect(
      aw.swap({ wallet, fromToken: 'ETH', toToken: 'USDC', amount: '0.05' }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'usd-cap', usd: { value: '150', symbol: 'ETH' } },
    })
    await expect(
      aw.swap({ wallet, fromToken: 'DAI', toToken: 'USDC', amount: '100.5' }),
    ).rejects.toMatchObject({ code: 'policy_blocked', details: { usd: { value: '100.5', symbol: 'DAI' } } })
    await expect(aw.stake({ wallet, protocol: 'lido', amount: '0.04' })).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { usd: { value: '120', asset: 'native' } },
    })

    const cosigner = (await fundedWallet(aw, devnet, '1', 'usd-cosigner')).address
    const deployed = await aw.deploySafe({ owners: [cosigner, wallet], threshold: 2, wallet: cosigner })
    if (deployed.status !== 'deployed') throw new Error('expected the Safe to be deployed')
    await devnet.mintToken(usdc, deployed.address, parseUnits('500', 6))
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [freshAddress(), parseUnits('200', 6)],
    })
    const proposed = await aw.proposeSafeTransaction({
      safe: deployed.address,
      wallet: cosigner,
      to: usdc,
      value: '0',
      data,
    })
    await expect(
      aw.confirmSafeTransaction({ safe: deployed.address, safeTxHash: proposed.proposal.safeTxHash, wallet }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'usd-cap', usd: { value: '200', asset: usdc, symbol: 'USDC' } },
    })
  })

  it('denies when the feed answer is older than its bound, per feed and configurable', async () => {
    const later = () => new Date(Date.now() + 2 * 3_600_000)
    const aged = await agentWalletOn(devnet, { now: later })
    const tolerant = await agentWalletOn(devnet, {
      now: later,
      priceFeedMaxAge: { byFeed: { 'devnet:ETH/USD': 3 * 3_600 } },
    })
    try {
      const rules = [{ id: 'usd-cap', type: 'max_per_tx', asset: 'usd', max: '1000' }]
      const wallet = await walletWith(rules, aged)
      const blocked = await rejection(aged.send({ wallet, to: freshAddress(), value: '0.1' }))
      expect(blocked).toMatchObject({
        code: 'policy_blocked',
        details: {
          ruleId: 'usd-cap',
          asset: 'usd',
          usd: {
            asset: 'native',
            symbol: 'ETH',
            amount: '0.1',
            error: 'stale_price',
            pair: 'ETH/USD',
            feed: devnet.addressBook.priceFeeds['ETH/USD'],
            maxAgeSeconds: 3_900,
          },
        },
      })
      expect((await storedTransaction(aged, blocked.details.transactionId)).status).toBe('blocked')
      // USDC's feed has a 24 h heartbeat: the same two hours are within its bound.
      expect((await aged.send({ wallet, to: freshAddress(), value: '5', token: usdc })).status).toBe(
        'submitted',
      )
      // A longer bound for this one feed lets the ETH send through.
      const other = await walletWith(rules, tolerant)
      expect((await tolerant.send({ wallet: other, to: freshAddress(), value: '0.1' })).status).toBe(
        'submitted',
      )
    } finally {
      await aged.close()
      await tolerant.close()
    }
  })

  it('denies an asset with no feed, and a token the address book does not list, whatever its symbol', async () => {
    const { 'DAI/USD': _daiFeed, ...feeds } = devnet.addressBook.priceFeeds
    const withoutDaiFeed = await agentWalletOn(devnet, {
      chains: {
        devnet: {
          provider: devnet.provider,
          chainId: devnet.chain.id,
          contracts: { ...devnet.addressBook, priceFeeds: feeds },
        },
      },
    })
    const daiUnlisted = await agentWalletOn(devnet, {
      chains: {
        devnet: {
          provider: devnet.provider,
          chainId: devnet.chain.id,
          contracts: {
            ...devnet.addressBook,
            tokens: devnet.addressBook.tokens.filter((t) => t.address !== dai),
          },
        },
      },
    })
    try {
      const rules = [{ type: 'spend_limit', asset: 'usd', max: '1000', window: '1h' }]
      for (const on of [withoutDaiFeed, daiUnlisted]) {
        const wallet = await walletWith(rules, on)
        await expect(on.send({ wallet, to: freshAddress(), value: '1', token: dai })).rejects.toMatchObject({
          code: 'policy_blocked',
          details: { ruleType: 'spend_limit', usd: { asset: dai, symbol: 'DAI', error: 'no_price_feed' } },
        })
        expect((await on.send({ wallet, to: freshAddress(), value: '0.01' })).status).toBe('submitted')
      }
    } finally {
      await withoutDaiFeed.close()
      await daiUnlisted.close()
    }
  })

  it('denies a feed without a valid answer', async () => {
    const wallet = await walletWith([{ type: 'max_per_tx', asset: 'usd', max: '1000' }])
    movedFeeds = true
    await setFeedAnswer(devnet, 'DAI/USD', 0n)
    await expect(aw.send({ wallet, to: freshAddress(), value: '1', token: dai })).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { usd: { symbol: 'DAI', error: 'invalid_price', pair: 'DAI/USD' } },
    })
  })

  it('reads no price feed for an intent with no USD rule in scope', async () => {
    const counted = countingCalls(devnet, Object.values(devnet.addressBook.priceFeeds))
    const watched = await agentWalletOn(devnet, {
      chains: {
        devnet: { provider: counted.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
      },
    })
    try {
      const wallet = await walletWith(
        [
          { type: 'max_per_tx', asset: 'native', max: '1' },
          { type: 'spend_limit', asset: 'USDC', max: '100', window: '24h' },
          { type: 'max_per_tx', asset: 'usd', max: '1', enabled: false },
        ],
        watched,
      )
      await watched.send({ wallet, to: freshAddress(), value: '0.1' })
      await watched.send({ wallet, to: freshAddress(), value: '5', token: usdc })
      await watched.evaluatePolicy({ wallet, to: freshAddress(), value: '0.1' })
      expect(counted.calls()).toBe(0)
      // The same sends under a USD rule do read the feeds: the counter sees feed reads.
      await watched.updatePolicyRules({ wallet, rules: [{ type: 'max_per_tx', asset: 'usd', max: '1000' }] })
      await watched.send({ wallet, to: freshAddress(), value: '0.1' })
      expect(counted.calls()).toBeGreaterThan(0)
    } finally {
      await watched.close()
    }
  })

  it('the dry run shows the USD value in details.usd and stores nothing', async () => {
    const wallet = await walletWith([{ type: 'require_approval', asset: 'usd', above: '100' }])
    const { decision } = await aw.evaluatePolicy({ wallet, to: freshAddress(), value: '0.05' })
    expect(decision).toMatchObject({
      decision: 'require_approval',
      details: { threshold: '100', requested: '150', usd: { value: '150', price: '3000', symbol: 'ETH' } },
    })
    expect((await aw.listHistory({ wallet })).transactions).toHaveLength(0)
  })
})
