import type { AgentWallet } from '@agentwallet/core'
import {
  aggregatorV3Abi,
  type Devnet,
  lidoAbi,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
} from '@agentwallet/devnet'
import { formatUnits, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

useDevnetAgentWallet((started) => ({ devnet, aw } = started))

describe('stake', () => {
  it('stakes ETH with lido through the money path and reports the stETH received', async () => {
    const client = publicClientOf(devnet)
    const lido = devnet.addressBook.staking.lido
    const wallet = await fundedWallet(aw, devnet, '5')
    const before = await client.readContract({
      address: lido,
      abi: lidoAbi,
      functionName: 'balanceOf',
      args: [wallet.address],
    })

    const result = withStatus(await aw.stake({ protocol: 'lido', amount: '2' }), 'confirmed')
    expect(result.status).toBe('confirmed')
    expect(result.wallet).toBe(wallet.address)
    expect(result.transaction).toMatchObject({
      kind: 'stake',
      status: 'confirmed',
      to: lido,
      amountRaw: parseEther('2').toString(),
    })
    expect(result.transaction.asset.address).toBe('native')
    const after = await client.readContract({
      address: lido,
      abi: lidoAbi,
      functionName: 'balanceOf',
      args: [wallet.address],
    })
    expect(result.received).toMatchObject({
      amount: '2',
      amountRaw: (after - before).toString(),
      asset: { symbol: 'stETH', address: lido },
    })
  })

  it('counts a stake against a native spend limit', async () => {
    const wallet = await fundedWallet(aw, devnet, '5', 'limited-staker')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'spend_limit', asset: 'native', max: '1', window: '24h' }],
    })
    await expect(aw.stake({ protocol: 'lido', amount: '1.5', wallet: wallet.address })).rejects.toMatchObject(
      {
        code: 'policy_blocked',
        details: { ruleType: 'spend_limit' },
      },
    )
  })

  it('refuses an unknown protocol and lists the supported ones', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'other')
    await expect(
      aw.stake({ protocol: 'rocketpool', amount: '1', wallet: wallet.address }),
    ).rejects.toMatchObject({
      code: 'unsupported_protocol',
      details: { protocol: 'rocketpool', supported: ['lido'] },
    })
  })
})

describe('prices', () => {
  it('reads Chainlink-style feeds, and gives an unknown symbol its own error', async () => {
    const client = publicClientOf(devnet)
    const feed = devnet.addressBook.priceFeeds['ETH/USD']
    const [roundId, answer, , updatedAt] = await client.readContract({
      address: feed,
      abi: aggregatorV3Abi,
      functionName: 'latestRoundData',
    })
    const decimals = await client.readContract({
      address: feed,
      abi: aggregatorV3Abi,
      functionName: 'decimals',
    })

    const { prices } = await aw.getPrices({ tokens: ['ETH', 'USDC', 'NOPE'] })
    expect(prices).toHaveLength(3)
    expect(prices[0]).toMatchObject({
      token: 'ETH',
      price: formatUnits(answer, decimals),
      currency: 'USD',
      source: { type: 'chainlink', feed, pair: 'ETH/USD', roundId: roundId.toString() },
      updatedAt: new Date(Number(updatedAt) * 1000).toISOString(),
    })
    expect(prices[0]).not.toHaveProperty('error')
    expect(prices[1]).toMatchObject({
      token: 'USDC',
      price: '1',
      source: { feed: devnet.addressBook.priceFeeds['USDC/USD'] },
    })
    expect(prices[2]).toEqual({ token: 'NOPE', error: { code: 'not_found', message: expect.any(String) } })
  })

  it('falls back to a DEX mid-price against a USD stablecoin where no feed exists', async () => {
    const { 'DAI/USD': _dai, ...feeds } = devnet.addressBook.priceFeeds
    const noDaiFeed = await agentWalletOn(devnet, {
      chains: {
        devnet: {
          provider: devnet.provider,
          chainId: 31337,
          contracts: { ...devnet.addressBook, priceFeeds: feeds },
        },
      },
    })
    try {
      const client = publicClientOf(devnet)
      const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
      const dai = devnet.addressBook.tokens.find((token) => token.symbol === 'DAI')!.address
      const venue = devnet.addressBook.uniswapV2[0]!
      const pair = await client.readContract({
        address: venue.factory,
        abi: uniswapV2FactoryAbi,
        functionName: 'getPair',
        args: [dai, usdc],
      })
      const [reserve0, reserve1] = await client.readContract({
        address: pair,
        abi: uniswapV2PairAbi,
        functionName: 'getReserves',
      })
      const token0 = await client.readContract({
        address: pair,
        abi: uniswapV2PairAbi,
        functionName: 'token0',
      })
      const [daiReserve, usdcReserve] =
        token0.toLowerCase() === dai.toLowerCase() ? [reserve0, reserve1] : [reserve1, reserve0]
      const expected = formatUnits((usdcReserve * 10n ** 18n * 10n ** 18n) / (daiReserve * 10n ** 6n), 18)

      const { prices } = await noDaiFeed.getPrices({ tokens: ['DAI'] })
      expect(prices[0]).toMatchObject({
        token: 'DAI',
        price: expected,
        source: { type: 'dex_mid_price', venue: venue.name, pair, quoteToken: usdc, quoteSymbol: 'USDC' },
      })
    } finally {
      await noDaiFeed.close()
    }
  })

  it('prices a token by a feed only when the address book lists it, never by the symbol it reports', async () => {
    const dai = devnet.addressBook.tokens.find((token) => token.symbol === 'DAI')!.address
    const daiUnlisted = await agentWalletOn(devnet, {
      chains: {
        devnet: {
          provider: devnet.provider,
          chainId: 31337,
          contracts: {
            ...devnet.addressBook,
            tokens: devnet.addressBook.tokens.filter((token) => token.address !== dai),
          },
        },
      },
    })
    try {
      const { prices } = await daiUnlisted.getPrices({ tokens: [dai] })
      expect(prices[0]).toMatchObject({ symbol: 'DAI', source: { type: 'dex_mid_price' } })
      const listed = await aw.getPrices({ tokens: [dai] })
      expect(listed.prices[0]).toMatchObject({ source: { type: 'chainlink', pair: 'DAI/USD' } })
    } finally {
      await daiUnlisted.close()
    }
  })

  it('refuses an empty token list', async () => {
    await expect(aw.getPrices({ tokens: [] })).rejects.toMatchObject({ code: 'validation_failed' })
  })
})
