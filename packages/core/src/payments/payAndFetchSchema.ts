import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { decimalAmountSchema } from '../schemas/primitives.js'
import { approvalSummarySchema, transactionViewSchema } from '../transactions/transactionSchemas.js'
import { chainField, walletField } from '../wallets/walletSchemas.js'

/** Methods a paid request may use; a body only goes with the ones that carry one. */
const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/**
 * A request to an HTTP resource that may answer 402 Payment Required (x402 v2), paid from a managed
 * wallet. `maxAmount` caps what one payment may cost, in the paying asset's units ("0.10" USDC).
 */
export const payAndFetchSchema = z
  .strictObject({
    wallet: walletField.check(
      z.describe('The managed wallet that pays (it signs an EIP-3009 authorization)'),
    ),
    url: z
      .url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' })
      .check(z.describe('The resource to fetch; a 402 answer is paid and the request sent again')),
    method: z._default(z.enum(methods), 'GET').check(z.describe('HTTP method (default GET)')),
    headers: z
      .optional(z.record(z.string().check(z.minLength(1)), z.string()))
      .check(z.describe('Request headers sent to the resource (kept with the payment, never shown back)')),
    body: z.optional(z.string()).check(z.describe('Request body, as text')),
    maxAmount: z
      .optional(decimalAmountSchema)
      .check(z.describe('Refuse (before signing) a payment above this, in the asset’s units: "0.10" USDC')),
    chain: z.optional(chainField),
  })
  .check(
    z.refine((input) => input.body === undefined || (input.method !== 'GET' && input.method !== 'HEAD'), {
      message: 'A GET or HEAD request carries no body',
      path: ['body'],
    }),
  )
export type PayAndFetchParameters = z.input<typeof payAndFetchSchema>
export type PayAndFetchInput = z.output<typeof payAndFetchSchema>

/** The resource's answer: status, headers and body as text (cut at the limit, then `truncated`). */
export const resourceResponseSchema = z.object({
  status: z.number().check(z.int()),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  truncated: z.boolean(),
})
export type ResourceResponse = z.infer<typeof resourceResponseSchema>

/** The payment made for a resource, as the resource server settled it. */
export const paymentSchema = z.object({
  transaction: transactionViewSchema,
  resource: z.string(),
  payee: out.address,
  network: z.string(),
  amount: out.decimal,
  amountRaw: out.baseUnits,
  asset: z.object({ address: out.address, symbol: z.string(), decimals: z.number().check(z.int()) }),
  /** The settlement transaction from `PAYMENT-RESPONSE` (null when the server sent none). */
  settlementTx: z.nullable(z.string()),
})
export type Payment = z.infer<typeof paymentSchema>

/**
 * What `payAndFetch` answers: the resource (and the payment, when it asked for one); a payment paused
 * for approval (HTTP 202; approving it completes the request); or, replaying a key whose payment is
 * still under way, that payment.
 */
export const payAndFetchAnswerSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('completed'),
    response: resourceResponseSchema,
    payment: z.nullable(paymentSchema),
  }),
  z.object({
    status: z.literal('pending_approval'),
    approval: approvalSummarySchema,
    transaction: transactionViewSchema,
  }),
  z.object({ status: z.literal('in_progress'), transaction: transactionViewSchema }),
])
export type PayAndFetchAnswer = z.infer<typeof payAndFetchAnswerSchema>
