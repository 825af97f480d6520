import { z } from 'zod'
import { addressSchema, decimalAmountSchema } from '../schemas/primitives.js'

/**
 * A token as a request names it: an address, a known symbol, or the native coin as 'ETH',
 * 'native', the zero address or 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE.
 */
export const tokenInputSchema = z.string().trim().min(1).max(64)
const chainSchema = z.string().min(1).max(64)

/** A swap dry run: what selling `amount` of `fromToken` would give on every venue. */
export const quoteSwapSchema = z.strictObject({
  fromToken: tokenInputSchema,
  toToken: tokenInputSchema,
  amount: decimalAmountSchema,
  wallet: addressSchema.optional(),
  chain: chainSchema.optional(),
})
export type QuoteSwapParameters = z.input<typeof quoteSwapSchema>

/** Slippage in basis points: 50 = 0.5%. At most 50% — a larger bound is no bound. */
export const slippageBpsSchema = z.number().int().min(0).max(5000)

/** A swap of exactly `amount` of `fromToken`; `minAmountOut` (in `toToken` units) overrides `slippageBps`. */
export const swapSchema = quoteSwapSchema.extend({
  slippageBps: slippageBpsSchema.optional(),
  minAmountOut: decimalAmountSchema.optional(),
})
export type SwapParameters = z.input<typeof swapSchema>

/** A stake of `amount` native coin with `protocol` (e.g. 'lido'). */
export const stakeSchema = z.strictObject({
  protocol: z.string().trim().min(1).max(64),
  amount: decimalAmountSchema,
  wallet: addressSchema.optional(),
  chain: chainSchema.optional(),
})
export type StakeParameters = z.input<typeof stakeSchema>

/** Prices of `tokens`: symbols or addresses, as a list or one comma-separated string. */
export const pricesSchema = z.strictObject({
  tokens: z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (typeof value === 'string' ? value.split(',') : value).map((token) => token.trim()))
    .pipe(z.array(tokenInputSchema).min(1).max(50)),
  chain: chainSchema.optional(),
})
export type PricesParameters = z.input<typeof pricesSchema>
