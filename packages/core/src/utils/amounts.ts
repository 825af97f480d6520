import { formatUnits } from 'viem'
import { ValidationError } from '../errors/errors.js'
import { amountIssueMessage, describeAmountIssue } from '../schemas/amountIssues.js'

const maxUint256 = 2n ** 256n - 1n

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
  if (issue)
    throw new ValidationError(amountIssueMessage(issue), { details: { reason: issue, value: String(value) } })
  const [whole = '0', fraction = ''] = value.split('.')
  if (fraction.length > decimals) {
    throw new ValidationError(amountIssueMessage('too_precise'), {
      details: { reason: 'too_precise', value, decimals, fractionDigits: fraction.length },
    })
  }
  const raw = BigInt(whole + fraction.padEnd(decimals, '0'))
  if (raw > maxUint256)
    throw new ValidationError(amountIssueMessage('too_large'), { details: { reason: 'too_large', value } })
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
