import { ValidationError } from '../errors/errors.js'

/**
 * How old a price feed's answer may be when a USD rule values an intent. Chainlink writes a round at
 * least once per heartbeat, so the bound is the feed's heartbeat plus a margin for a late round.
 */
export type PriceFeedMaxAge = {
  /** Seconds, for every feed `byFeed` does not name. */
  defaultSeconds: number
  /** Seconds by pair (`"USDC/USD"`) or by chain and pair (`"base:ETH/USD"`, which wins); any case. */
  byFeed: Readonly<Record<string, number>>
}

/**
 * The defaults: 3900 s (a 1 h heartbeat, as ETH/USD on Ethereum, plus 5 min) for any feed, and
 * 90 000 s (a 24 h heartbeat plus 1 h) for the USD stablecoins, whose feeds update daily when the peg holds.
 */
export const defaultPriceFeedMaxAge: PriceFeedMaxAge = Object.freeze({
  defaultSeconds: 3_900,
  byFeed: Object.freeze({ 'USDC/USD': 90_000, 'USDT/USD': 90_000, 'DAI/USD': 90_000 }),
})

/**
 * The configured bounds over the defaults (`byFeed` entries are added to the default ones).
 * Refuses a bound that is not a positive number of seconds (`validation_failed`).
 * @example resolvePriceFeedMaxAge({ byFeed: { 'base:ETH/USD': 1_500 } })
 */
export function resolvePriceFeedMaxAge(config: Partial<PriceFeedMaxAge> = {}): PriceFeedMaxAge {
  const resolved = {
    defaultSeconds: config.defaultSeconds ?? defaultPriceFeedMaxAge.defaultSeconds,
    byFeed: { ...defaultPriceFeedMaxAge.byFeed, ...config.byFeed },
  }
  for (const [key, seconds] of [
    ['defaultSeconds', resolved.defaultSeconds],
    ...Object.entries(resolved.byFeed),
  ]) {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
      throw new ValidationError('A price feed max age must be a positive number of seconds', {
        details: { feed: key, seconds },
      })
    }
  }
  return resolved
}

/** The bound for one feed of one chain, in seconds: by chain and pair, else by pair, else the default. */
export function maxAgeSecondsOf(maxAge: PriceFeedMaxAge, chain: string, pair: string): number {
  const entries = Object.entries(maxAge.byFeed)
  for (const wanted of [`${chain}:${pair}`.toLowerCase(), pair.toLowerCase()]) {
    const found = entries.find(([key]) => key.toLowerCase() === wanted)
    if (found) return found[1]
  }
  return maxAge.defaultSeconds
}
