import { formatUnits } from 'viem'
import { type FeedRound, isValidRound, readPriceFeed } from '../chain/readPriceFeed.js'
import { isRevert, toChainError } from '../chain/toChainError.js'
import type { ChainInfo } from '../chain/types.js'
import { usdPriceFeedOf } from '../chain/usdPriceFeedOf.js'
import type { AgentWalletContext } from '../context.js'
import type { IntentAsset, UsdPrice, UsdPriceError, UsdValuation } from '../intents/types.js'
import { sameAsset } from './matchesAsset.js'
import { maxAgeSecondsOf } from './priceFeedMaxAge.js'
import { usdValueOf } from './usdValueOf.js'

type PriceReading = { round: FeedRound; price: UsdPrice } | { error: UsdPriceError }

/** Prices already read in one evaluation, by asset: each feed is read once however many amounts it values. */
export type UsdPriceMemo = Map<string, Promise<PriceReading>>

/**
 * What `amount` of `asset` is worth in US dollars now, from the chain's price feed for it
 * (`usdPriceFeedOf`): a valuation, or why there is none — no feed, an answer older than
 * `options.priceFeedMaxAge` allows, an invalid or reverting feed. Never a guess, never zero for a
 * missing price. A zero amount is worth zero and reads nothing. An unreachable node throws its chain error.
 * @example const usd = await valueInUsd(ctx, chain, { address: 'native', symbol: 'ETH', decimals: 18 }, 10n ** 17n)
 */
export async function valueInUsd(
  ctx: AgentWalletContext,
  chain: ChainInfo,
  asset: IntentAsset,
  amount: bigint,
  memo: UsdPriceMemo = new Map(),
): Promise<UsdValuation> {
  if (amount === 0n) return { value: 0n }
  const key = asset.address.toLowerCase()
  let reading = memo.get(key)
  if (!reading) {
    reading = readUsdPrice(ctx, chain, asset)
    memo.set(key, reading)
  }
  const read = await reading
  if ('error' in read) return { error: read.error }
  return {
    value: usdValueOf(amount, asset.decimals, read.round.answer, read.round.decimals),
    price: read.price,
  }
}

async function readUsdPrice(
  ctx: AgentWalletContext,
  info: ChainInfo,
  asset: IntentAsset,
): Promise<PriceReading> {
  const named = { asset: asset.address, symbol: asset.symbol }
  // Prices are read from an EVM chain's feeds; a chain of another family has none the policy reads
  // yet (a Solana address book's prices are not feeds): unpriced, never zero.
  const family = info.family ?? 'evm'
  if (family !== 'evm') {
    const reason = `the policy reads no USD prices on ${family} chain ${info.name} yet`
    return { error: { ...named, code: 'no_price_feed', reason } }
  }
  const chain = ctx.chains.get(info.name)
  const ref = usdPriceFeedOf(chain, asset.address)
  if (!ref) {
    const reason =
      asset.address === 'native' ||
      chain.contracts.tokens?.some((token) => sameAsset(token.address, asset.address))
        ? `${chain.name} has no ${asset.symbol}/USD price feed in its address book`
        : `${asset.address} is not a token of the ${chain.name} address book, so no price feed speaks for it`
    return { error: { ...named, code: 'no_price_feed', reason } }
  }
  const where = { pair: ref.pair, feed: ref.feed }
  let round: FeedRound
  try {
    round = await readPriceFeed(chain, ref)
  } catch (error) {
    if (!isRevert(error)) throw toChainError(error, chain.name, { read: true })
    return { error: { ...named, ...where, code: 'invalid_price', reason: `the ${ref.pair} feed reverted` } }
  }
  if (!isValidRound(round)) {
    return {
      error: {
        ...named,
        ...where,
        code: 'invalid_price',
        reason: `the ${ref.pair} feed has no valid answer`,
      },
    }
  }
  const updatedAt = new Date(Number(round.updatedAt) * 1000).toISOString()
  const maxAgeSeconds = maxAgeSecondsOf(ctx.options.priceFeedMaxAge, chain.name, ref.pair)
  const ageSeconds = Math.floor(ctx.now().getTime() / 1000) - Number(round.updatedAt)
  if (ageSeconds > maxAgeSeconds) {
    return {
      error: {
        ...named,
        ...where,
        code: 'stale_price',
        reason: `the ${ref.pair} answer was written ${ageSeconds} s ago, more than the ${maxAgeSeconds} s allowed`,
        updatedAt,
        maxAgeSeconds,
      },
    }
  }
  const price = {
    price: formatUnits(round.answer, round.decimals),
    ...where,
    roundId: round.roundId.toString(),
    updatedAt,
  }
  return { round, price }
}
