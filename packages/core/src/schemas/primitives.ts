import { type Address, getAddress, type Hex, isAddress } from 'viem'
import { z } from 'zod'
import { amountIssueMessage, describeAmountIssue } from '../utils/amounts.js'
import { parseDuration } from '../utils/duration.js'

const addressShape = /^0x[0-9a-fA-F]{40}$/

/**
 * True for `0x` + 40 hex that is all-lowercase, all-uppercase, or a valid EIP-55 checksum.
 * @example isValidAddress('0x52908400098527886E0F7030069857D2E4169EE7') // true
 */
export function isValidAddress(value: string): boolean {
  if (!addressShape.test(value)) return false
  const hex = value.slice(2)
  // Single-case hex carries no checksum; mixed case claims one, so it must be right.
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true
  return isAddress(value, { strict: true })
}

/** An EVM address; mixed case must be a valid EIP-55 checksum. Outputs the checksummed form. */
export const addressSchema = z
  .string()
  .refine((value) => addressShape.test(value), {
    message: 'Address must be 0x followed by 40 hex characters',
    abort: true,
  })
  .refine(isValidAddress, { message: 'Address has an invalid EIP-55 checksum', abort: true })
  .transform((value): Address => getAddress(value.toLowerCase()))

/**
 * An unsigned decimal amount string ("0.1", "10"): no sign, exponent, hex, spaces or JSON numbers.
 * Precision against the asset's decimals is checked later by `parseAmount`, which knows the asset.
 */
export const decimalAmountSchema = z
  .string({ error: amountIssueMessage('not_a_string') })
  .superRefine((value, ctx) => {
    const issue = describeAmountIssue(value)
    if (issue) ctx.addIssue({ code: 'custom', message: amountIssueMessage(issue), params: { reason: issue } })
  })

/** `0x`-prefixed hex bytes of even length (calldata, signatures); `0x` alone is empty data. */
export const hexDataSchema = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/, { message: 'Must be 0x followed by an even number of hex characters' })
  .transform((value) => value.toLowerCase() as Hex)

/** A window such as "30s", "15m", "1h", "24h", "7d" (at most 366d). */
export const durationSchema = z.string().superRefine((value, ctx) => {
  try {
    parseDuration(value)
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message })
  }
})

/**
 * The `limit` (1…`maxLimit`, default `defaultLimit`) and `offset` (≥ 0, default 0) of a paged list,
 * coerced from query strings; spread into a list's schema.
 * @example z.strictObject({ status: statusSchema.optional(), ...pageFields({ defaultLimit: 50, maxLimit: 200 }) })
 */
export function pageFields({ defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number }) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
    offset: z.coerce.number().int().min(0).default(0),
  }
}
