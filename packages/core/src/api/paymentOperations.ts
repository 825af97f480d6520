import { payAndFetch } from '../payments/payAndFetch.js'
import { payAndFetchAnswerSchema, payAndFetchSchema } from '../payments/payAndFetchSchema.js'
import { chainErrors, defineOperation } from './defineOperation.js'

/** Payments for what agents use over HTTP: x402. */
export const paymentOperations = [
  defineOperation({
    name: 'payAndFetch',
    summary:
      'Fetch an HTTP resource and pay it with x402 when it answers 402 (through the policy engine; 202 when paused for approval)',
    description:
      'Fetch a URL; if it answers 402 Payment Required (x402), pay it from one of this caller’s wallets and fetch it again: the answer is the resource (status, headers, body) and the payment (payee, amount, settlement tx). The payment passes the wallet’s policy like a send: a blocked one fails with policy_blocked; one above an approval threshold answers status "pending_approval" (a human approves it, then the request completes; call again with the same idempotency key to get the resource). Set maxAmount to refuse anything dearer (payment_not_payable, nothing is signed). Reuse the same idempotency key when retrying so a resource is never paid twice.',
    input: payAndFetchSchema,
    output: payAndFetchAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/x402/fetch', status: 200, whenPaused: 202 },
    errors: [
      'not_found',
      'policy_blocked',
      'insufficient_funds',
      'idempotency_conflict',
      'payment_not_payable',
      'payment_requirements_invalid',
      'payment_failed',
      'resource_unavailable',
      ...chainErrors,
    ],
    tool: true,
    action: payAndFetch,
  }),
]
