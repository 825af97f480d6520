import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { decimalAmountSchema, walletAddressSchema } from '../schemas/primitives.js'
import { chainField } from '../wallets/walletSchemas.js'

/** The most one faucet call adds, in ETH: enough for any trial, too little to pass for real money. */
export const faucetCapEth = '100'
/** The most one faucet call mints of a test token, in its units. */
export const faucetTokenCap = '1000000'

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
  chain: z.optional(chainField).check(z.describe('Devnet chain name (default: the server’s default chain)')),
  token: z
    .optional(z.string().check(z.minLength(1), z.maxLength(64)))
    .check(
      z.describe(
        `A test token of the chain's address book to mint instead of the native coin: its symbol (USDC, DEV) or address (a mint on Solana); amount in its units (default 10 on an EVM chain, 1000 on Solana; at most ${faucetTokenCap} per call)`,
      ),
    ),
})
export type FaucetParameters = z.input<typeof faucetSchema>

export const faucetResultSchema = z.object({
  address: out.walletAddress,
  chain: z.string(),
  /** The test token minted (its symbol); absent for ETH. */
  token: z.optional(z.string()),
  /** What was added. */
  amount: out.decimal,
  /** The address's balance after. */
  balance: out.decimal,
})
export type FaucetReturnType = z.infer<typeof faucetResultSchema>
