import { defineContracts, intentErrors } from '../schemas/defineContract.js'
import { payAndFetchAnswerSchema, payAndFetchSchema } from './payAndFetchSchema.js'
import {
  cancelPaymentAnswerSchema,
  cancelPaymentSchema,
  rateCounterpartyAnswerSchema,
  rateCounterpartySchema,
} from './paymentSchemas.js'

/** Payments for what agents use over HTTP: x402. (contracts: what each operation takes, answers and may fail with) */
export const paymentContract = defineContracts({
  payAndFetch: {
    summary:
      'Fetch an HTTP resource and pay it with x402 when it answers 402 (through the policy engine; 202 when paused for approval)',
    description:
      'Fetch a URL; if it answers 402 Payment Required (x402), pay it from one of this caller’s wallets and fetch it again: the answer is the resource (status, headers, body) and the payment (payee, amount, settlement tx). The payment passes the wallet’s policy like a send: a blocked one fails with policy_blocked; one above an approval threshold answers status "pending_approval" (a human approves it, then the request completes; call again with the same idempotency key to get the resource). Set maxAmount to refuse anything dearer (payment_not_payable, nothing is signed). Reuse the same idempotency key when retrying so a resource is never paid twice. payment_not_delivered means the payee took the payment on chain without delivering (it counts against the budget); payment_failed means it refused it: the amount stays reserved until the signed authorization expires, or until cancel_payment cancels it.',
    input: payAndFetchSchema,
    output: payAndFetchAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/x402/fetch', status: 200, whenPaused: 202 },
    errors: [
      'wallet_kind_unsupported',
      'not_found',
      'payment_not_payable',
      'payment_requirements_invalid',
      'payment_failed',
      'payment_not_delivered',
      'resource_unavailable',
      ...intentErrors,
    ],
    tool: true,
  },
  rateCounterparty: {
    summary:
      'Post feedback on the ERC-8004 agent a settled x402 payment paid, with the payment as proofOfPayment (202 when paused)',
    description:
      'After paying a resource with pay_and_fetch, rate the agent that was paid: the score goes to the chain’s ERC-8004 Reputation Registry from the wallet that paid, with a feedback file carrying the payment (payer, payee, chain, settlement tx) as proofOfPayment. The payee must be a registered ERC-8004 agent. It is a contract call that costs gas and passes the wallet’s policy like a send.',
    input: rateCounterpartySchema,
    output: rateCounterpartyAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/x402/feedback', status: 200, whenPaused: 202 },
    errors: ['not_found', 'validation_failed', 'unsupported_protocol', 'transaction_failed', ...intentErrors],
    tool: true,
  },
  cancelPayment: {
    summary:
      'Cancel the unused EIP-3009 authorization of an x402 payment its payee did not deliver, releasing its reservation once mined',
    description:
      'An x402 payment the resource refused keeps its signed authorization reserved until it expires, since the payee could still use it. Cancel it: the wallet sends the token’s cancelAuthorization (a contract call that moves nothing and pays gas, judged by the wallet’s policy); once mined the payment is failed (authorization_cancelled) and its reservation released. A payment its payee already used is settled instead (conflict).',
    input: cancelPaymentSchema,
    output: cancelPaymentAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/payments/:payment/cancel', status: 200, whenPaused: 202 },
    errors: ['not_found', 'conflict', ...intentErrors],
    tool: true,
  },
})
