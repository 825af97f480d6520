import * as z from 'zod'
import { out } from '../schemas/out.js'
import { addressSchema } from '../schemas/primitives.js'
import { chainField, walletField } from '../wallets/walletSchemas.js'

const kinds = ['erc20', 'permit2', 'operator', 'erc721_token'] as const

export const listAllowancesSchema = z.strictObject({
  wallet: walletField.describe('The managed wallet whose standing grants are listed'),
  chain: chainField.optional(),
})

/** One permission standing on chain that the service granted from the wallet. */
export const allowanceSchema = z.object({
  kind: z
    .enum(kinds)
    .describe(
      'erc20: an ERC-20 allowance; permit2: a Permit2 allowance; operator: an operator over a whole ERC-721/ERC-1155 collection; erc721_token: one ERC-721 token',
    ),
  asset: z.object({
    address: out.address,
    symbol: z.string(),
    decimals: z.number().int(),
    tokenId: out.baseUnits.optional(),
  }),
  spender: out.address.describe('Who may move the asset: the spender or operator'),
  amount: out.decimal
    .nullable()
    .describe('What it may still move, in the asset’s units; null for an operator or one token'),
  amountRaw: out.baseUnits.nullable(),
  unlimited: z.boolean().describe('The maximum allowance, or an operator over the whole collection'),
  expiresAt: out.timestamp.optional().describe('When a Permit2 allowance lapses'),
  transactionId: z.string().describe('The last intent that granted it'),
  grantedAt: out.timestamp,
})
export type Allowance = z.infer<typeof allowanceSchema>

export const listAllowancesAnswerSchema = z.object({ allowances: z.array(allowanceSchema) })

export const revokeAllowanceSchema = z.strictObject({
  wallet: walletField.describe('The managed wallet that granted the permission and sends the revoke'),
  chain: chainField.optional(),
  token: addressSchema.describe('The token (ERC-20, ERC-721 or ERC-1155 contract) the permission is over'),
  spender: addressSchema.describe('The spender or operator to take the permission from'),
  kind: z
    .enum(kinds)
    .optional()
    .describe(
      'Which permission (default: the one the service recorded for this token and spender, else erc20)',
    ),
  tokenId: z
    .string()
    .regex(/^[0-9]{1,78}$/)
    .optional()
    .describe('The ERC-721 token id, for kind erc721_token'),
})
export type RevokeAllowanceInput = z.output<typeof revokeAllowanceSchema>
