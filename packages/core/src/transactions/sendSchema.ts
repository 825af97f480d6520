import { z } from 'zod'
import { addressSchema, decimalAmountSchema, hexDataSchema } from '../schemas/primitives.js'

/**
 * A send: native value, an ERC-20 transfer (`token`) or a contract call (`data`). `value` is in
 * the asset's units ("0.1" ETH, "25" USDC). Unknown fields are refused: a typo must not move money.
 */
export const sendSchema = z
  .strictObject({
    to: addressSchema,
    value: decimalAmountSchema,
    chain: z.string().min(1).max(64).optional(),
    token: addressSchema.optional(),
    data: hexDataSchema.optional(),
  })
  .refine((send) => !(send.token && send.data), {
    message: 'A token transfer builds its own calldata: send either token or data, not both',
    path: ['data'],
  })
export type SendParameters = z.input<typeof sendSchema>
