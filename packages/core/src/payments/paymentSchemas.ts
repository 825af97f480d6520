import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { decimalAmountSchema, displayTextSchema } from '../schemas/primitives.js'
import { sendAnswerSchema, transactionViewSchema } from '../transactions/transactionSchemas.js'
import { walletField } from '../wallets/walletSchemas.js'

/** The x402 payment whose unused authorization to cancel. */
export const cancelPaymentSchema = z.strictObject({
  payment: z
    .string()
    .check(z.minLength(1), z.maxLength(100), z.describe('The x402 payment: its transaction id (tx_…)')),
})

export type CancelPaymentInput = z.output<typeof cancelPaymentSchema>

/** The transaction that cancels (as a send answers it), beside the payment, reserved until it is mined. */
export const cancelPaymentAnswerSchema = z.intersection(
  sendAnswerSchema,
  z.object({ payment: transactionViewSchema }),
)

export type CancelPaymentAnswer = z.infer<typeof cancelPaymentAnswerSchema>

/** Feedback on the agent paid by a settled x402 payment, from the wallet that paid. */
export const rateCounterpartySchema = z.strictObject({
  wallet: walletField.check(
    z.describe('The wallet that made the payment (it signs the feedback and pays its gas)'),
  ),
  payment: z.string().check(z.minLength(1), z.describe('The x402 payment: its transaction id (tx_…)')),
  score: decimalAmountSchema.check(
    z.describe('The rating, e.g. "95" (0–100 by convention), up to 18 decimals'),
  ),
  tag1: z._default(displayTextSchema(64), 'x402').check(z.describe('First tag (default "x402")')),
  tag2: z._default(displayTextSchema(64), '').check(z.describe('Second tag')),
})

export type RateCounterpartyInput = z.output<typeof rateCounterpartySchema>

/** The feedback posted, beside the transaction that posts it. */
export const rateCounterpartyAnswerSchema = z.intersection(
  sendAnswerSchema,
  z.object({
    feedback: z.object({
      agentId: z.string(),
      feedbackURI: z.string(),
      feedbackHash: out.hash,
      proofOfPayment: z.object({
        fromAddress: out.address,
        toAddress: out.address,
        chainId: z.string(),
        txHash: out.hash,
      }),
    }),
  }),
)

export type RateCounterpartyAnswer = z.infer<typeof rateCounterpartyAnswerSchema>
