import * as z from 'zod/mini'
import { amountIssueMessage, describeAmountIssue } from './amountIssues.js'
import { toChecksumAddress } from './checksumAddress.js'
import type { Address, Hex } from './hexTypes.js'
import { parseDuration } from './parseDuration.js'

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
  return toChecksumAddress(value) === value
}

/** An EVM address; mixed case must be a valid EIP-55 checksum. Outputs the checksummed form. */
export const addressSchema = z.pipe(
  z.string().check(
    z.refine((value) => addressShape.test(value), {
      message: 'Address must be 0x followed by 40 hex characters',
      abort: true,
    }),
    z.refine(isValidAddress, { message: 'Address has an invalid EIP-55 checksum', abort: true }),
  ),
  z.transform((value): Address => toChecksumAddress(value)),
)

/** Base58 of 32 bytes: 32 to 44 characters of the Bitcoin alphabet (no 0, O, I, l). */
const base58AddressShape = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/**
 * A Solana address (an Ed25519 public key or a program-derived address), base58, kept as given:
 * base58 is case-sensitive and has one spelling.
 */
export const solanaAddressSchema = z.string().check(
  z.refine((value) => base58AddressShape.test(value), {
    message: 'Address must be base58 of 32 bytes (32 to 44 characters)',
    abort: true,
  }),
)

/**
 * A wallet's address in its family's native form: an EVM address (checksummed, as `addressSchema`) or
 * a Solana one (base58, as given). Typed `Address` for the EVM code it reaches: an operation that does
 * not declare the `solana` family never runs on a Solana wallet (`unsupported_chain_family` first).
 */
export const walletAddressSchema = z.pipe(
  z.string().check(
    z.refine((value) => addressShape.test(value) || base58AddressShape.test(value), {
      message: 'Address must be 0x followed by 40 hex characters (EVM) or base58 of 32 bytes (Solana)',
      abort: true,
    }),
    z.refine((value) => !addressShape.test(value) || isValidAddress(value), {
      message: 'Address has an invalid EIP-55 checksum',
      abort: true,
    }),
  ),
  z.transform((value): Address => (addressShape.test(value) ? toChecksumAddress(value) : (value as Address))),
)

/**
 * An unsigned decimal amount string ("0.1", "10"): no sign, exponent, hex, spaces or JSON numbers.
 * Precision against the asset's decimals is checked later by `parseAmount`, which knows the asset.
 */
export const decimalAmountSchema = z.string({ error: amountIssueMessage('not_a_string') }).check(
  z.superRefine((value, ctx) => {
    const issue = describeAmountIssue(value)
    if (issue) ctx.addIssue({ code: 'custom', message: amountIssueMessage(issue), params: { reason: issue } })
  }),
)

/** `0x`-prefixed hex bytes of even length (calldata, signatures); `0x` alone is empty data. */
export const hexDataSchema = z.pipe(
  z.string().check(
    z.regex(/^0x([0-9a-fA-F]{2})*$/, {
      message: 'Must be 0x followed by an even number of hex characters',
    }),
  ),
  z.transform((value) => value.toLowerCase() as Hex),
)

/** A window such as "30s", "15m", "1h", "24h", "7d" (at most 366d). */
export const durationSchema = z.string().check(
  z.superRefine((value, ctx) => {
    try {
      parseDuration(value)
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message })
    }
  }),
)

/**
 * The `limit` (1…`maxLimit`, default `defaultLimit`) and `offset` (≥ 0, default 0) of a paged list;
 * spread into a list's schema. (The HTTP edge turns query strings into numbers before validation.)
 * @example z.strictObject({ status: z.optional(statusSchema), ...pageFields({ defaultLimit: 50, maxLimit: 200 }) })
 */
export function pageFields({ defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number }) {
  return {
    limit: z._default(z.number().check(z.int(), z.gte(1), z.lte(maxLimit)), defaultLimit),
    offset: z._default(z.number().check(z.int(), z.gte(0)), 0),
  }
}

/**
 * What could make free text display as something it is not: C0 and C1 control characters (NUL
 * included), the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder
 * what follows them, the line and paragraph separators, and unpaired surrogates (with the `u` flag a
 * surrogate range matches only a lone half). Multi-line text keeps tab, line feed and carriage return.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const unsafeSingleLine = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u
const unsafeMultiLine =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u

/**
 * Free text a person reads (names, descriptions, reasons: the dashboard shows them): trimmed, at most
 * `max` characters, and refused (`validation_failed`) when it holds a character that could spoof what
 * is shown — control characters, bidi overrides and isolates, unpaired surrogates. `multiline` allows
 * tab and line breaks. Add `.check(z.minLength(1))` where empty text makes no sense.
 * @example const agentName = displayTextSchema(100).check(z.minLength(1, 'agentName must not be empty'))
 */
export function displayTextSchema(max: number, { multiline = false }: { multiline?: boolean } = {}) {
  const unsafe = multiline ? unsafeMultiLine : unsafeSingleLine
  return z.string().check(
    z.trim(),
    z.maxLength(max),
    z.refine((value) => !unsafe.test(value), {
      message: multiline
        ? 'Text must not contain control characters (other than tab and line breaks), bidirectional controls or unpaired surrogates'
        : 'Text must not contain control characters, line breaks, bidirectional controls or unpaired surrogates',
    }),
  )
}
