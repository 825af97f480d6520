import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { addressSchema, decimalAmountSchema } from '../schemas/primitives.js'
import { chainField } from '../wallets/walletSchemas.js'

/** The most one faucet call adds, in ETH: enough for any trial, too little to pass for real money. */
export const faucetCapEth = '100'

export const faucetSchema = z.strictObject({
  address: addressSchema.check(z.describe('The address to fund (any address, managed or not)')),
  amount: z
    .optional(decimalAmountSchema)
    .check(z.describe(`ETH to add, a decimal string (default 10, at most ${faucetCapEth} per call)`)),
  chain: z.optional(chainField).check(z.describe('Devnet chain name (default: the server’s default chain)')),
})
export type FaucetParameters = z.input<typeof faucetSchema>

export const faucetResultSchema = z.object({
  address: out.address,
  chain: z.string(),
  /** What was added. */
  amount: out.decimal,
  /** The address's balance after. */
  balance: out.decimal,
})
export type FaucetReturnType = z.infer<typeof faucetResultSchema>
