import { formatUnits } from 'viem'
import { ValidationError } from '../errors/errors.js'

/** Why a string is not a plain decimal amount, as a stable machine-readable reason. */
export type AmountIssue =
  | 'not_a_string'
  | 'empty'
  | 'whitespace'
  | 'negative'
  | 'signed'
  | 'hex'
  | 'exponent'
  | 'not_decimal'
  | 'too_precise'
  | 'too_large'

const decimalPattern = /^\d+(\.\d+)?$/
const maxUint256 = 2n ** 256n - 1n

const messages: Record<AmountIssue, string> = {
  not_a_string: 'Amount must be a decimal string such as "0.1", not a JSON number',
  empty: 'Amount must not be empty',
  whitespace: 'Amount must not contain spaces',
  negative: 'Amount must not be negative',
  signed: 'Amount must not carry a sign',
  hex: 'Amount must be a decimal string, not hex',
  exponent: 'Amount must not use exponent notation',
  not_decimal: 'Amount must be a decimal string such as "0.1"',
  too_precise: 'Amount has more decimals than the asset allows',
  too_large: 'Amount does not fit in 256 bits',
}

/**
 * Classifies why `value` is not a plain unsigned decimal string (undefined when it is one).
 * @example describeAmountIssue('1e18') // 'exponent'
 */
export function describeAmountIssue(value: unknown): AmountIssue | undefined {
  if (typeof value !== 'string') return 'not_a_string'
  if (value === '') return 'empty'
  if (decimalPattern.test(value)) return undefined
  // Ordered from most to least specific so the reason names the real mistake.
  if (/\s/.test(value)) return 'whitespace'
  if (value.startsWith('-')) return 'negative'
  if (value.startsWith('+')) return 'signed'
  if (/^0x/i.test(value)) return 'hex'
  if (/^\d*\.?\d*e[+-]?\d*$/i.test(value)) return 'exponent'
  return 'not_decimal'
}

/** The human message for an amount issue. */
export function amountIssueMessage(issue: AmountIssue): string {
  return messages[issue]
}

/**
 * Parses a decimal string into integer base units, exactly; never rounds, never uses floats.
 * @example parseAmount('0.5', 18) // 500000000000000000n
 */
export function parseAmount(value: string, decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new ValidationError('Asset decimals must be an integer from 0 to 255', {
      details: { reason: 'bad_decimals', decimals },
    })
  }
  const issue = describeAmountIssue(value)
  if (issue) throw new ValidationError(messages[issue], { details: { reason: issue, value: String(value) } })
  const [whole = '0', fraction = ''] = value.split('.')
  if (fraction.length > decimals) {
    throw new ValidationError(messages.too_precise, {
      details: { reason: 'too_precise', value, decimals, fractionDigits: fraction.length },
    })
  }
  const raw = BigInt(whole + fraction.padEnd(decimals, '0'))
  if (raw > maxUint256)
    throw new ValidationError(messages.too_large, { details: { reason: 'too_large', value } })
  return raw
}

/**
 * Formats integer base units as a decimal string without trailing zeros.
 * @example formatAmount(1500000n, 6) // '1.5'
 */
export function formatAmount(raw: bigint, decimals: number): string {
  return formatUnits(raw, decimals)
}

/**
 * The largest of some bigints (Math.max takes numbers only).
 * @example const maxFee = maxOf(bumped(oldMax), market.maxFeePerGas, tip)
 */
export function maxOf(first: bigint, ...rest: bigint[]): bigint {
  let largest = first
  for (const value of rest) if (value > largest) largest = value
  return largest
}
