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
