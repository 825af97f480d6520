import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { decimalAmountSchema, walletAddressSchema } from '../schemas/primitives.js'
import { approvalSummarySchema, transactionViewSchema } from '../transactions/transactionSchemas.js'
import { chainField } from '../wallets/walletSchemas.js'

/**
 * A token as a request names it: an address, a known symbol, or the native coin as 'ETH',
 * 'native', the zero address or 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE.
 */
export const tokenInputSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1),
    z.maxLength(64),
    z.describe('A token address, a known symbol such as "USDC", or "ETH" for the native coin'),
  )

const actingWalletField = z
  .optional(walletAddressSchema)
  .check(z.describe('The managed wallet that acts (default: the caller’s only wallet)'))

/** A swap dry run: what selling `amount` of `fromToken` would give on every venue. */
export const quoteSwapSchema = z.strictObject({
  fromToken: tokenInputSchema,
  toToken: tokenInputSchema,
  amount: decimalAmountSchema.check(z.describe('How much of fromToken to sell, in its units ("0.5")')),
  wallet: actingWalletField,
  chain: z.optional(chainField),
})
export type QuoteSwapParameters = z.input<typeof quoteSwapSchema>

/** Slippage in basis points: 50 = 0.5%. At most 50% — a larger bound is no bound. */
export const slippageBpsSchema = z.number().check(z.int(), z.gte(0), z.lte(5000))

/** A swap of exactly `amount` of `fromToken`; `minAmountOut` (in `toToken` units) overrides `slippageBps`. */
export const swapSchema = z.extend(quoteSwapSchema, {
  slippageBps: z
    .optional(slippageBpsSchema)
    .check(z.describe('Slippage bound in basis points (default 50 = 0.5%)')),
  minAmountOut: z
    .optional(decimalAmountSchema)
    .check(z.describe('The least toToken to accept (overrides slippageBps)')),
})
export type SwapParameters = z.input<typeof swapSchema>

/** A stake of `amount` native coin with `protocol` (e.g. 'lido'). */
export const stakeSchema = z.strictObject({
  protocol: z
    .string()
    .check(z.trim(), z.minLength(1), z.maxLength(64), z.describe('The staking protocol, e.g. "lido"')),
  amount: decimalAmountSchema.check(z.describe('How much native coin to stake ("1")')),
  wallet: actingWalletField,
  chain: z.optional(chainField),
})
export type StakeParameters = z.input<typeof stakeSchema>

/** Prices of `tokens`: symbols or addresses (over HTTP, one comma-separated list). */
export const pricesSchema = z.strictObject({
  tokens: z.array(tokenInputSchema).check(z.minLength(1), z.maxLength(50)),
  chain: z.optional(chainField),
})
export type PricesParameters = z.input<typeof pricesSchema>

export const tokenViewSchema = z.object({
  address: z.union([out.address, z.literal('native')]),
  symbol: z.string(),
  decimals: z.number().check(z.int()),
})

const quoteViewSchema = z.object({
  source: z.string(),
  venue: z.string(),
  amountOut: out.decimal,
  amountOutRaw: out.baseUnits,
  path: z.nullable(z.array(z.string())),
  /** Fee tier per hop in hundredths of a basis point (Uniswap V3). */
  fees: z.nullable(z.array(z.number().check(z.int()))),
})

/** Every venue's quote for one sale, the best first. */
export const quoteAnswerSchema = z.object({
  chain: z.string(),
  fromToken: tokenViewSchema,
  toToken: tokenViewSchema,
  amountIn: out.decimal,
  amountInRaw: out.baseUnits,
  best: quoteViewSchema,
  quotes: z.array(quoteViewSchema),
  /** Sources that failed for this request (the others still answered). */
  unavailable: z.array(z.object({ source: z.string(), code: z.string(), message: z.string() })),
})

const swapFields = z.extend(quoteAnswerSchema, {
  wallet: out.address,
  venue: z.string(),
  source: z.string(),
  slippageBps: z.nullable(z.number().check(z.int())),
  minAmountOut: out.decimal,
  minAmountOutRaw: out.baseUnits,
  deadline: out.timestamp,
  /** The ERC-20 approve sent first, when the allowance was short. */
  allowanceTransaction: z.nullable(transactionViewSchema),
}).shape

/** A swap: mined (`confirmed`, with what the wallet received), or paused at a step for a human (202, with a swapId). */
export const swapAnswerSchema = z.discriminatedUnion('status', [
  z.object({
    ...swapFields,
    status: z.literal('confirmed'),
    amountOut: out.decimal.check(z.describe('What the wallet received, from the receipt')),
    amountOutRaw: out.baseUnits,
    transaction: transactionViewSchema,
    hash: out.hash,
  }),
  z.object({
    ...swapFields,
    status: z.literal('pending_approval'),
    /** The swap transaction (null while the approve step waits for approval). */
    transaction: z.nullable(transactionViewSchema),
    hash: z.null(),
    approval: approvalSummarySchema,
    /** Follow the swap with `getSwap`: its remaining steps run once approved. */
    swapId: z.string(),
  }),
])

/** A tracked swap (one that paused for approval). */
export const swapOperationSchema = z.object({
  id: z.string(),
  status: z.enum(['awaiting_approval', 'swapping', 'confirmed', 'failed']),
  step: z.enum(['allowance', 'swap']),
  approvalId: z.nullable(z.string()),
  chain: z.string(),
  wallet: out.address,
  fromToken: tokenViewSchema,
  toToken: tokenViewSchema,
  amountIn: out.decimal,
  venue: z.nullable(z.string()),
  source: z.nullable(z.string()),
  minAmountOutRaw: z.nullable(out.baseUnits),
  amountOutRaw: z.nullable(out.baseUnits),
  transactions: z.object({ allowance: z.optional(z.string()), swap: z.optional(z.string()) }),
  error: z.nullable(z.object({ code: z.string(), message: z.string() })),
  createdAt: out.timestamp,
  updatedAt: out.timestamp,
})

const stakeFields = {
  protocol: z.string(),
  chain: z.string(),
  wallet: out.address,
  amount: out.decimal,
  amountRaw: out.baseUnits,
  transaction: transactionViewSchema,
}

/** A stake: mined with what the wallet received, or paused for a human (202). */
export const stakeAnswerSchema = z.discriminatedUnion('status', [
  z.object({
    ...stakeFields,
    status: z.literal('confirmed'),
    /** The liquid-staking token minted to the wallet. */
    received: z.object({ asset: tokenViewSchema, amount: out.decimal, amountRaw: out.baseUnits }),
    hash: out.hash,
  }),
  z.object({
    ...stakeFields,
    status: z.literal('pending_approval'),
    hash: z.null(),
    approval: approvalSummarySchema,
  }),
])

const priceSourceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('chainlink'), feed: out.address, pair: z.string(), roundId: z.string() }),
  z.object({
    type: z.literal('dex_mid_price'),
    venue: z.string(),
    pair: out.address,
    quoteToken: out.address,
    quoteSymbol: z.string(),
  }),
])

/** USD prices, each from a named source, or an error of its own: never a made-up price. */
export const pricesAnswerSchema = z.object({
  chain: z.string(),
  prices: z.array(
    z.union([
      z.object({
        token: z.string(),
        symbol: z.string(),
        address: z.string(),
        price: out.decimal.check(z.describe('USD per whole token')),
        currency: z.literal('USD'),
        source: priceSourceSchema,
        updatedAt: out.timestamp,
      }),
      z.object({
        token: z.string(),
        error: z.object({
          code: z.enum(['not_found', 'no_price_source', 'invalid_price']),
          message: z.string(),
        }),
      }),
    ]),
  ),
})
