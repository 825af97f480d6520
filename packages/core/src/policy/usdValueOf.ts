import { formatAmount, parseAmount } from '../utils/amounts.js'

/**
 * Decimal places of a USD figure: values are bigints of 10^-18 USD (wei-like dollars), so an 8-decimal
 * feed answer times an amount of an 18-decimal token rounds at most once, by less than 10^-18 USD.
 */
export const usdDecimals = 18

/**
 * The USD value of `amount` base units of an asset with `assetDecimals`, at a feed answer of
 * `answer` (in `feedDecimals`), in 10^-18 USD, rounded up so that a spend is never under-counted.
 * Integer arithmetic only.
 * @example usdValueOf(10n ** 17n, 18, 3000_00000000n, 8) // 300n * 10n ** 18n (0.1 ETH at 3000 USD)
 */
export function usdValueOf(
  amount: bigint,
  assetDecimals: number,
  answer: bigint,
  feedDecimals: number,
): bigint {
  const numerator = amount * answer * 10n ** BigInt(usdDecimals)
  const denominator = 10n ** BigInt(assetDecimals + feedDecimals)
  return (numerator + denominator - 1n) / denominator
}

/** A USD value as a decimal string of dollars ("300", "0.000001"). */
export function formatUsd(value: bigint): string {
  return formatAmount(value, usdDecimals)
}

/** Parses a decimal string of dollars into 10^-18 USD, exactly. */
export function parseUsd(value: string): bigint {
  return parseAmount(value, usdDecimals)
}
