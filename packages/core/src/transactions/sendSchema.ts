import * as z from 'zod/mini'
import { addressSchema, decimalAmountSchema, hexDataSchema } from '../schemas/primitives.js'
import { chainField, walletField } from '../wallets/walletSchemas.js'

/**
 * A send from a managed wallet: native value, an ERC-20 transfer (`token`) or a contract call
 * (`data`). `value` is in the asset's units ("0.1" ETH, "25" USDC). Unknown fields are refused: a
 * typo must not move money.
 */
export const sendSchema = z
  .strictObject({
    wallet: walletField.check(z.describe('The managed wallet that sends and pays gas')),
    to: addressSchema.check(z.describe('Recipient address, or the contract called (0x + 40 hex)')),
    value: decimalAmountSchema.check(
      z.describe(
        'Amount as a decimal string in the asset’s units: "0.1" ETH, or "25" of the ERC-20 in `token`',
      ),
    ),
    chain: z.optional(chainField),
    token: z
      .optional(addressSchema)
      .check(z.describe('ERC-20 contract address; omit to send the native coin')),
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
