import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { chainField } from '../wallets/walletSchemas.js'
import { transactionField, transactionViewSchema } from './transactionSchemas.js'

/** What `speedUp` and `cancel` take: the submitted tx, and optionally the most it may pay per gas. */
export const replacementSchema = z.strictObject({
  transaction: transactionField,
  chain: z.optional(chainField).check(z.describe('The chain the transaction is on (hashes are per chain)')),
  maxFeePerGas: z
    .optional(
      z.string().check(z.regex(/^[1-9][0-9]{0,30}$/, 'maxFeePerGas must be a whole number of wei per gas')),
    )
    .check(
      z.describe(
        'The most the new signature may pay, in wei per gas; may pass the fee-bump cap. Default: 10% above the current signature, or what the chain asks now if more, within the cap',
      ),
    ),
})
export type ReplacementInput = z.output<typeof replacementSchema>

/** The transaction under its new signature, and the hash that signature replaces (still minable). */
export const replacementAnswerSchema = z.object({
  transaction: transactionViewSchema,
  replaces: out.hash,
})
export type ReplacementAnswer = z.infer<typeof replacementAnswerSchema>
