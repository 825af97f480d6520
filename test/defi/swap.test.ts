import { type AgentWallet, type QuoteSource, uniswapV2QuoteSource } from '@agentwallet/core'
import { type Devnet, devnetV3Pools, uniswapV2RouterAbi, uniswapV3QuoterV2Abi } from '@agentwallet/devnet'
import { type Address, encodePacked, erc20Abi, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  approver,
  fundedWallet,
  publicClientOf,
  startDevnet,
  storedTransaction,
  withStatus,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
let usdc: Address
let dai: Address

beforeAll(async () => {
  devnet = await startDevnet()
  aw = await agentWalletOn(devnet)
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  dai = devnet.addressBook.tokens.find((token) => token.symbol === 'DAI')!.address
})
afterAll(async () => {
  await aw?.close()
  await devnet?.close()
})

/**
 * Each venue's best output for `amountIn`, read straight from the devnet's contracts: the V2 routers'
 * `getAmountsOut` (direct and via WETH), and the V3 QuoterV2 on the pools the devnet seeded
 * (`devnetV3Pools`, all WETH pairs: one hop when WETH is a side, else two through WETH).
 */
async function independentQuotes(amountIn: bigint, from: Address, to: Address) {
  const client = publicClientOf(devnet)
  const { weth } = devnet.addressBook
  const paths =
    from === weth || to === weth
      ? [[from, to]]
      : [
          [from, to],
          [from, weth, to],
        ]
  const quotes: Record<string, bigint> = {}
  for (const venue of devnet.addressBook.uniswapV2) {
    for (const path of paths) {
      const amounts = await client
        .readContract({
          address: venue.router,
          abi: uniswapV2RouterAbi,
          functionName: 'getAmountsOut',
          args: [amountIn, path],
        })
        .catch(() => undefined)
      const out = amounts?.[amounts.length - 1]
      if (out !== undefined && out > (quotes[venue.name] ?? 0n)) quotes[venue.name] = out
    }
  }
  const v3 = devnet.addressBook.uniswapV3[0]!
  const feeOf = (token: Address) =>
    devnetV3Pools.find(
      (pool) => devnet.addressBook.tokens.find((t) => t.symbol === pool.quote)?.address === token,
    )?.fee
  const hops =
    from === weth || to === weth
      ? [[from, to]]
      : [
          [from, weth],
          [weth, to],
        ]
  const fees = hops.map(([a, b]) => feeOf(a === weth ? b! : a!))
  if (fees.every((fee) => fee !== undefined)) {
    const path = encodePacked(
      hops.length === 1
        ? ['address', 'uint24', 'address']
        : ['address', 'uint24', 'address', 'uint24', 'address'],
      hops.length === 1 ? [from, fees[0]!, to] : [from, fees[0]!, weth, fees[1]!, to],
    )
    const { result } = await client.simulateContract({
      address: v3.quoter,
      abi: uniswapV3QuoterV2Abi,
      functionName: 'quoteExactInput',
      args: [path, amountIn],
    })
    quotes[v3.name] = result[0]
  }
  return quotes
}

function bestOf(quotes: Record<string, bigint>): [string, bigint] {
  return Object.entries(quotes).sort(([, a], [, b]) => (a > b ? -1 : a < b ? 1 : 0))[0]!
}

const balanceOf = (token: Address, owner: Address) =>
  publicClientOf(devnet).readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })

describe('swap', () => {
  it('swaps ETH for a token at the best venue, through WETH, and reports every quote', async () => {
    const wallet = await fundedWallet(aw, devnet, '10')
    const expected = await independentQuotes(parseEther('1'), devnet.addressBook.weth, usdc)
    const [venue, amountOut] = bestOf(expected)
    expect(venue).toBe('sushiswap')

    const quote = await aw.quoteSwap({ fromToken: 'ETH', toToken: usdc, amount: '1', wallet: wallet.address })
    expect(quote.best).toMatchObject({ venue, amountOutRaw: amountOut.toString() })
    expect(Object.fromEntries(quote.quotes.map((q) => [q.venue, BigInt(q.amountOutRaw)]))).toEqual(expected)

    const result = withStatus(
      await aw.swap({ fromToken: 'ETH', toToken: usdc, amount: '1', wallet: wallet.address }),
      'confirmed',
    )
    expect(result.status).toBe('confirmed')
    expect(result.venue).toBe(venue)
    expect(result.quotes.map((q) => q.venue).sort()).toEqual(['sushiswap', 'uniswap-v2', 'uniswap-v3'])
    expect(result.amountInRaw).toBe(parseEther('1').toString())
    expect(result.amountOutRaw).toBe(amountOut.toString())
    expect(result.minAmountOutRaw).toBe(((amountOut * 9950n) / 10000n).toString())
    expect(result.allowanceTransaction).toBeNull()
    expect(result.transaction).toMatchObject({
      kind: 'swap',
      status: 'confirmed',
      amountRaw: parseEther('1').toString(),
    })
    expect(result.transaction?.asset.address).toBe('native')
    expect(await balanceOf(usdc, wallet.address)).toBe(amountOut)
  })

  it('swaps token for token after an approve of exactly the amount; a second swap approves again', async () => {
    const wallet = await fundedWallet(aw, devnet, '1')
    await devnet.mintToken(usdc, wallet.address, parseUnits('1000', 6))
    const expected = await independentQuotes(parseUnits('100', 6), usdc, dai)
    const [venue, amountOut] = bestOf(expected)

    const first = withStatus(
      await aw.swap({ fromToken: usdc, toToken: 'DAI', amount: '100', wallet: wallet.address }),
      'confirmed',
    )
    expect(first.venue).toBe(venue)
    expect(first.amountOutRaw).toBe(amountOut.toString())
    expect(first.allowanceTransaction).toMatchObject({
      kind: 'contract_call',
      status: 'confirmed',
      amount: '0',
    })
    expect(first.transaction).toMatchObject({ kind: 'swap', amountRaw: parseUnits('100', 6).toString() })
    expect(first.transaction?.asset.address).toBe(usdc)
    expect(await balanceOf(dai, wallet.address)).toBe(amountOut)
    expect(await balanceOf(usdc, wallet.address)).toBe(parseUnits('900', 6))

    // The approve granted what the swap spent: nothing stands for the next one.
    const second = await aw.swap({ fromToken: 'USDC', toToken: dai, amount: '50', wallet: wallet.address })
    expect(second.status).toBe('confirmed')
    expect(second.allowanceTransaction).toMatchObject({ status: 'confirmed' })
    const history = await aw.listHistory({ wallet: wallet.address, limit: 10 })
    expect(history.transactions.filter((tx) => tx.kind === 'contract_call')).toHaveLength(2)
    expect(history.transactions.filter((tx) => tx.kind === 'swap')).toHaveLength(2)
  })

  it('swaps a token for native ETH', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '1')
    await devnet.mintToken(usdc, wallet.address, parseUnits('3000', 6))
    const expected = await independentQuotes(parseUnits('3000', 6), usdc, devnet.addressBook.weth)
    const [venue, amountOut] = bestOf(expected)
    const before = await client.getBalance({ address: wallet.address })
    const result = withStatus(
      await aw.swap({ fromToken: usdc, toToken: 'native', amount: '3000', wallet: wallet.address }),
      'confirmed',
    )
    expect(result.venue).toBe(venue)
    expect(result.amountOutRaw).toBe(amountOut.toString())
    expect(result.toToken.address).toBe('native')
    // Less the gas of the approve and the swap, the wallet gained what the router paid.
    const gained = (await client.getBalance({ address: wallet.address })) - before
    expect(gained < amountOut && gained > amountOut - parseEther('0.01')).toBe(true)
  })

  it('refuses before sending when the best quote is below minAmountOut', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    const [venue, amountOut] = bestOf(await independentQuotes(parseEther('1'), devnet.addressBook.weth, usdc))
    const tooMuch = (Number(amountOut / 1_000_000n) + 1).toString()
    await expect(
      aw.swap({
        fromToken: 'ETH',
        toToken: usdc,
        amount: '1',
        minAmountOut: tooMuch,
        wallet: wallet.address,
      }),
    ).rejects.toMatchObject({
      code: 'slippage_exceeded',
      details: { venue, minAmountOut: tooMuch },
    })
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(0)
  })

  it('counts a swap against a spend limit in the asset it spends', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    await devnet.mintToken(usdc, wallet.address, parseUnits('500', 6))
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'spend_limit', asset: usdc, max: '100', window: '24h' }],
    })
    expect(
      (await aw.swap({ fromToken: usdc, toToken: dai, amount: '60', wallet: wallet.address })).status,
    ).toBe('confirmed')
    await expect(
      aw.swap({ fromToken: usdc, toToken: dai, amount: '50', wallet: wallet.address }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleType: 'spend_limit', spent: '60', requested: '50' },
    })
    // The rule is on USDC: spending ETH is not limited by it.
    expect(
      (await aw.swap({ fromToken: 'ETH', toToken: usdc, amount: '1', wallet: wallet.address })).status,
    ).toBe('confirmed')
  })

  it('needs the acting wallet named when the caller has several, and refuses unknown or identical tokens', async () => {
    await fundedWallet(aw, devnet, '1')
    await expect(aw.swap({ fromToken: 'ETH', toToken: usdc, amount: '1' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: { issues: [{ path: 'wallet' }] },
    })
    const wallet = await fundedWallet(aw, devnet, '1')
    await expect(
      aw.swap({ fromToken: 'ETH', toToken: 'NOPE', amount: '1', wallet: wallet.address }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
    })
    await expect(
      aw.swap({ fromToken: 'ETH', toToken: devnet.addressBook.weth, amount: '1', wallet: wallet.address }),
    ).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(
      aw.swap({ fromToken: 'ETH', toToken: usdc, amount: '1', wallet: wallet.address, slippage: 5 } as never),
    ).rejects.toMatchObject({ code: 'validation_failed' })
  })
})

describe('quote sources', () => {
  it('asks an operator-configured source beside the venues; the router still enforces amountOutMin on chain', async () => {
    // An "aggregator" that routes through the devnet's uniswap-v2 router but promises 10% more than it gives.
    const router = devnet.addressBook.uniswapV2[0]!.router
    const optimistic: QuoteSource = {
      name: 'optimistic-aggregator',
      async quote(request) {
        const [venueQuote] = await uniswapV2QuoteSource.quote({
          ...request,
          chain: {
            ...request.chain,
            contracts: { ...request.chain.contracts, uniswapV2: [devnet.addressBook.uniswapV2[0]!] },
          },
        })
        if (!venueQuote) return []
        return [
          {
            ...venueQuote,
            source: 'optimistic-aggregator',
            venue: 'optimistic',
            amountOut: (venueQuote.amountOut * 11n) / 10n,
            spender: router,
            trustedSpender: false,
          },
        ]
      },
    }
    const broken: QuoteSource = {
      name: 'offline-aggregator',
      quote: () => Promise.reject(new Error('socket hang up')),
    }
    const withSources = await agentWalletOn(devnet, { quoteSources: [optimistic, broken] })
    try {
      const wallet = await fundedWallet(withSources, devnet, '5')
      const quote = await withSources.quoteSwap({ fromToken: 'ETH', toToken: usdc, amount: '1' })
      expect(quote.best.venue).toBe('optimistic')
      expect(quote.quotes.map((q) => q.venue).sort()).toEqual([
        'optimistic',
        'sushiswap',
        'uniswap-v2',
        'uniswap-v3',
      ])
      expect(quote.unavailable).toEqual([
        { source: 'offline-aggregator', code: 'internal', message: 'The quote source failed' },
      ])

      // amountOutMin comes from the promise; the real router gives less, so the swap would revert: nothing is signed.
      await expect(
        withSources.swap({ fromToken: 'ETH', toToken: usdc, amount: '1', wallet: wallet.address }),
      ).rejects.toMatchObject({
        code: 'transaction_failed',
        details: { reason: expect.stringContaining('INSUFFICIENT_OUTPUT_AMOUNT') },
      })
      expect((await withSources.listHistory({ wallet: wallet.address })).count).toBe(0)
      expect(await balanceOf(usdc, wallet.address)).toBe(0n)
    } finally {
      await withSources.close()
    }
  })
})

describe('a swap paused for approval', () => {
  it('gets a fresh deadline when approved after the old one passed, and keeps its amountOutMin', async () => {
    const client = publicClientOf(devnet)
    // One AgentWallet that knows only the V2 routers, one that knows only V3's SwapRouter02: both
    // kinds of calldata get renewed.
    const { uniswapV2, uniswapV3 } = devnet.addressBook
    for (const [expectedSource, contracts] of [
      ['uniswap-v2', { ...devnet.addressBook, uniswapV3: [] }],
      ['uniswap-v3', { ...devnet.addressBook, uniswapV2: [] }],
    ] as const) {
      const only = await agentWalletOn(devnet, {
        chains: { devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts } },
      })
      try {
        const wallet = await fundedWallet(only, devnet, '5')
        await only.updatePolicyRules({
          wallet: wallet.address,
          rules: [{ type: 'require_approval', always: true }],
        })
        const paused = withStatus(
          await only.swap({ fromToken: 'ETH', toToken: usdc, amount: '0.5', wallet: wallet.address }),
          'pending_approval',
        )
        expect(paused).toMatchObject({ status: 'pending_approval', source: expectedSource })
        // The signed call is in the stored record (the API view never shows calldata).
        const stale = await storedTransaction(only, paused.transaction!.id)
        expect([...uniswapV2, ...uniswapV3].map((venue) => venue.router)).toContain(stale.to)

        // The human takes an hour; the calldata signed at request time would now revert on chain.
        await devnet.increaseTime(60 * 60)
        await devnet.mine()
        const expired = await client
          .call({
            account: wallet.address,
            to: stale.to as Address,
            data: stale.call.data,
            value: parseEther('0.5'),
          })
          .then(
            () => undefined,
            (error: Error) => error.message,
          )
        expect(expired).toMatch(/EXPIRED|Transaction too old/)

        const { transaction } = await only.as(approver).approve({ approvalId: paused.approval.id })
        expect(transaction.id).toBe(stale.id)
        expect((await storedTransaction(only, transaction.id)).call.data).not.toBe(stale.call.data)
        expect((await only.waitForTransaction({ transaction: transaction.id })).status).toBe('confirmed')
        expect((await balanceOf(usdc, wallet.address)) >= BigInt(paused.minAmountOutRaw)).toBe(true)
      } finally {
        await only.close()
      }
    }
  })
})
