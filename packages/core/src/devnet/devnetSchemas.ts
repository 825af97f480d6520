import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { decimalAmountSchema, walletAddressSchema } from '../schemas/primitives.js'
import { chainField } from '../wallets/walletSchemas.js'

/** The most one faucet call adds, in ETH: enough for any trial, too little to pass for real money. */
export const faucetCapEth = '100'

export const faucetSchema = z.strictObject({
  address: walletAddressSchema.check(
    z.describe('The address to fund (any address, managed or not; base58 on a Solana chain)'),
  ),
  amount: z
    .optional(decimalAmountSchema)
    .check(
      z.describe(
        `ETH (SOL on Solana) to add, a decimal string (default 10, at most ${faucetCapEth} per call); with \`token\`, that token's units (default 1000, at most 1,000,000)`,
      ),
    ),
  token: z
    .optional(z.string().check(z.minLength(1), z.maxLength(64)))
    .check(
      z.describe('Solana devnet only: a test token to mint instead of SOL, by symbol (USDC, DEV) or mint'),
    ),
  chain: z.optional(chainField).check(z.describe('Devnet chain name (default: the server’s default chain)')),
})
export type FaucetParameters = z.input<typeof faucetSchema>

export const faucetResultSchema = z.object({
  address: out.walletAddress,
  chain: z.string(),
  /** The token minted, when one was asked for. */
  token: z.optional(z.string()),
  /** What was added. */
  amount: out.decimal,
  /** The address's balance after. */
  balance: out.decimal,
})
export type FaucetReturnType = z.infer<typeof faucetResultSchema>
