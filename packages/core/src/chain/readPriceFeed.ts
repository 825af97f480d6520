import { aggregatorV3Abi } from './aggregatorV3Abi.js'
import type { ChainHandle } from './types.js'
import type { PriceFeedRef } from './usdPriceFeedOf.js'

/** A feed's latest round: the answer in the feed's own decimals, and when it was written. */
export type FeedRound = PriceFeedRef & {
  answer: bigint
  decimals: number
  roundId: bigint
  /** Unix seconds of the round's last update (0 when the feed never answered). */
  updatedAt: bigint
}

/**
 * Reads the latest round of an AggregatorV3 feed (two calls, in parallel). Errors are the chain's
 * (a revert, an unreachable node): the caller decides what an unreadable price means.
 * @example const { answer, decimals } = await readPriceFeed(chain, { pair: 'ETH/USD', feed })
 */
export async function readPriceFeed(chain: ChainHandle, ref: PriceFeedRef): Promise<FeedRound> {
  const [decimals, [roundId, answer, , updatedAt]] = await Promise.all([
    chain.client.readContract({ address: ref.feed, abi: aggregatorV3Abi, functionName: 'decimals' }),
    chain.client.readContract({ address: ref.feed, abi: aggregatorV3Abi, functionName: 'latestRoundData' }),
  ])
  return { ...ref, answer, decimals, roundId, updatedAt }
}

/** True when a round holds a usable price: a positive answer that was written at some point. */
export function isValidRound(round: FeedRound): boolean {
  return round.answer > 0n && round.updatedAt > 0n
}
