import * as z from 'zod/mini'
import { decimalAmountSchema, hexDataSchema, walletAddressSchema } from '../schemas/primitives.js'
import { chainField, walletField } from '../wallets/walletSchemas.js'

/** A token a send names: its address (an ERC-20 contract, an SPL mint) or its symbol in the chain's address book. */
const tokenSchema = z.union([
  walletAddressSchema,
  z.string().check(
    z.regex(/^[A-Za-z][A-Za-z0-9.]{0,15}$/, {
      message: 'Token must be an address (0x… or a base58 mint) or a symbol such as USDC',
    }),
  ),
])

/**
 * A send from a managed wallet: native value, a token transfer (`token`) or a contract call
 * (`data`, EVM). `value` is in the asset's units ("0.1" ETH, "25" USDC, "0.5" SOL). `to` and `token`
 * are in the wallet's family's form (checked per family when the send is drafted: `draftSend`).
 * Unknown fields are refused: a typo must not move money.
 */
export const sendSchema = z
  .strictObject({
    wallet: walletField.check(z.describe('The managed wallet that sends and pays gas')),
    to: walletAddressSchema.check(
      z.describe('Recipient address, or the contract called: 0x + 40 hex (EVM), base58 (Solana)'),
    ),
    value: decimalAmountSchema.check(
      z.describe(
        'Amount as a decimal string in the asset’s units: "0.1" ETH, or "25" of the ERC-20 in `token`',
      ),
    ),
    chain: z.optional(chainField),
    token: z
      .optional(tokenSchema)
      .check(
        z.describe(
          'ERC-20 contract address (EVM), SPL mint or symbol such as USDC (Solana); omit to send the native coin',
        ),
      ),
    data: z.optional(hexDataSchema).check(z.describe('Calldata of a contract call (not with `token`)')),
  })
  .check(
    z.refine((send) => !(send.token && send.data), {
      message: 'A token transfer builds its own calldata: send either token or data, not both',
      path: ['data'],
    }),
  )
export type SendParameters = z.input<typeof sendSchema>
export type SendInput = z.output<typeof sendSchema>
