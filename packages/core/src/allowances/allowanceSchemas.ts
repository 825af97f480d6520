import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { addressSchema } from '../schemas/primitives.js'
import { chainField, walletField } from '../wallets/walletSchemas.js'

const kinds = ['erc20', 'permit2', 'operator', 'erc721_token'] as const

export const listAllowancesSchema = z.strictObject({
  wallet: walletField.check(z.describe('The managed wallet whose standing grants are listed')),
  chain: z.optional(chainField),
})

/** One permission standing on chain that the service granted from the wallet. */
export const allowanceSchema = z.object({
  kind: z
    .enum(kinds)
    .check(
      z.describe(
        'erc20: an ERC-20 allowance; permit2: a Permit2 allowance; operator: an operator over a whole ERC-721/ERC-1155 collection; erc721_token: one ERC-721 token',
      ),
    ),
  asset: z.object({
    address: out.address,
    symbol: z.string(),
    decimals: z.number().check(z.int()),
    tokenId: z.optional(out.baseUnits),
  }),
  spender: out.address.check(z.describe('Who may move the asset: the spender or operator')),
  amount: z
    .nullable(out.decimal)
    .check(z.describe('What it may still move, in the asset’s units; null for an operator or one token')),
  amountRaw: z.nullable(out.baseUnits),
  unlimited: z.boolean().check(z.describe('The maximum allowance, or an operator over the whole collection')),
  expiresAt: z.optional(out.timestamp).check(z.describe('When a Permit2 allowance lapses')),
  transactionId: z.string().check(z.describe('The last intent that granted it')),
  grantedAt: out.timestamp,
})
export type Allowance = z.infer<typeof allowanceSchema>

export const listAllowancesAnswerSchema = z.object({ allowances: z.array(allowanceSchema) })

export const revokeAllowanceSchema = z.strictObject({
  wallet: walletField.check(
    z.describe('The managed wallet that granted the permission and sends the revoke'),
  ),
  chain: z.optional(chainField),
  token: addressSchema.check(
    z.describe('The token (ERC-20, ERC-721 or ERC-1155 contract) the permission is over'),
  ),
  spender: addressSchema.check(z.describe('The spender or operator to take the permission from')),
  kind: z
    .optional(z.enum(kinds))
    .check(
      z.describe(
        'Which permission (default: the one the service recorded for this token and spender, else erc20)',
      ),
    ),
  tokenId: z
    .optional(z.string().check(z.regex(/^[0-9]{1,78}$/)))
    .check(z.describe('The ERC-721 token id, for kind erc721_token')),
})
export type RevokeAllowanceInput = z.output<typeof revokeAllowanceSchema>
