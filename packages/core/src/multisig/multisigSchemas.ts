import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import {
  addressSchema,
  decimalAmountSchema,
  hexDataSchema,
  walletAddressSchema,
} from '../schemas/primitives.js'
import { approvalSummarySchema, transactionViewSchema } from '../transactions/transactionSchemas.js'
import { chainField, walletField } from '../wallets/walletSchemas.js'

const safeField = addressSchema.check(z.describe('The Safe’s address'))

/** Deploy a Safe v1.4.1: unique valid owners, 1 ≤ threshold ≤ owners; `wallet` (a managed wallet) pays gas. */
export const deploySafeSchema = z
  .strictObject({
    owners: z
      .array(addressSchema)
      .check(z.minLength(1), z.maxLength(50), z.describe('The owners’ addresses')),
    threshold: z.number().check(z.int(), z.gte(1), z.describe('How many owners must sign a transaction')),
    chain: z.optional(chainField),
    wallet: z
      .optional(walletAddressSchema)
      .check(
        z.describe('The managed wallet that pays for the deployment (default: the caller’s only wallet)'),
      ),
  })
  .check(
    z.superRefine((input, ctx) => {
      const seen = new Set<string>()
      input.owners.forEach((owner, index) => {
        if (seen.has(owner))
          ctx.addIssue({ code: 'custom', path: ['owners', index], message: 'Owners must be unique' })
        seen.add(owner)
      })
      if (input.threshold > input.owners.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['threshold'],
          message: 'Threshold cannot exceed the number of owners',
        })
      }
    }),
  )
export type DeploySafeParameters = z.input<typeof deploySafeSchema>

/** Propose a Safe transaction; `wallet` is the managed owner that proposes and signs first; `value` in native units. */
export const proposeSafeSchema = z.strictObject({
  safe: safeField,
  wallet: walletField.check(z.describe('The managed owner wallet that proposes and signs first')),
  to: addressSchema.check(z.describe('What the Safe pays or calls')),
  value: decimalAmountSchema.check(z.describe('Native value the Safe sends, in its units ("0.1")')),
  data: z.optional(hexDataSchema).check(z.describe('Calldata (for a token transfer or a contract call)')),
  operation: z
    .optional(z.union([z.literal(0), z.literal(1)]))
    .check(z.describe('0 = call (default), 1 = delegatecall (e.g. MultiSend)')),
  chain: z.optional(chainField),
})
export type ProposeSafeParameters = z.input<typeof proposeSafeSchema>

const safeTxHashSchema = z.pipe(
  z
    .string()
    .check(
      z.regex(/^0x[0-9a-fA-F]{64}$/, { message: 'safeTxHash must be 0x followed by 64 hex characters' }),
    ),
  z.transform((value) => value.toLowerCase() as `0x${string}`),
)

/** Confirm as a managed owner (`wallet`) or with an outside owner's 65-byte ECDSA `signature`: one of them. */
export const confirmSafeSchema = z
  .strictObject({
    safe: safeField,
    safeTxHash: safeTxHashSchema.check(z.describe('The proposal’s SafeTx hash')),
    wallet: z
      .optional(walletAddressSchema)
      .check(z.describe('The managed owner wallet that confirms (signs)')),
    signature: z
      .optional(
        z
          .string()
          .check(z.regex(/^0x[0-9a-fA-F]{130}$/, { message: 'signature must be 65 bytes of hex (r, s, v)' })),
      )
      .check(z.describe('An outside owner’s signature of the safeTxHash, instead of `wallet`')),
    chain: z.optional(chainField),
  })
  .check(
    z.refine((input) => (input.wallet === undefined) !== (input.signature === undefined), {
      message: 'Confirm with either wallet (a managed owner) or signature (an outside owner)',
      path: ['wallet'],
    }),
  )
export type ConfirmSafeParameters = z.input<typeof confirmSafeSchema>

export const getSafeSchema = z.strictObject({ safe: safeField, chain: z.optional(chainField) })
export type GetSafeParameters = z.input<typeof getSafeSchema>

/** A deployment: mined with the Safe's address, or paused for a human (202). */
export const deploySafeAnswerSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('deployed'),
    address: out.address,
    chain: z.string(),
    owners: z.array(out.address),
    threshold: z.number().check(z.int()),
    hash: out.hash,
    transaction: transactionViewSchema,
  }),
  z.object({
    status: z.literal('pending_approval'),
    chain: z.string(),
    transaction: transactionViewSchema,
    approval: approvalSummarySchema,
  }),
])

/** A proposal as the API shows it: value as a decimal string, signatures without their bytes. */
export const safeProposalSchema = z.object({
  id: z.string(),
  safeAddress: out.address,
  chain: z.string(),
  safeTxHash: out.hash,
  status: z.enum(['pending', 'executing', 'executed', 'failed']),
  to: out.address,
  value: out.decimal,
  valueRaw: out.baseUnits,
  data: out.hex,
  operation: z.union([z.literal(0), z.literal(1)]),
  nonce: z.string(),
  proposer: out.address,
  confirmations: z.array(
    z.object({ owner: out.address, source: z.enum(['managed', 'external']), addedAt: out.timestamp }),
  ),
  transactionId: z.nullable(z.string()),
  executionHash: z.nullable(out.hash),
  error: z.nullable(z.object({ code: z.string(), message: z.string() })),
  createdAt: out.timestamp,
  updatedAt: out.timestamp,
})

/** Where a proposal stands after a propose or confirm, and its execution once at threshold. */
export const safeProposalAnswerSchema = z.object({
  /** `pending` below threshold, `executing` while its execTransaction runs (or waits for approval), `executed`. */
  status: safeProposalSchema.shape.status,
  proposal: safeProposalSchema,
  /** Owner signatures that count now, and how many the Safe needs. */
  confirmations: z.number().check(z.int()),
  threshold: z.number().check(z.int()),
  /** The execTransaction, once sent. */
  transaction: z.nullable(transactionViewSchema),
  hash: z.nullable(out.hash),
  /** Set when the execTransaction waits for a human approval (policy). */
  approval: z.optional(approvalSummarySchema),
})

/** A Safe: owners, threshold and nonce read from chain, and the caller's tenant's open proposals. */
export const safeSchema = z.object({
  address: out.address,
  chain: z.string(),
  owners: z.array(out.address),
  threshold: z.number().check(z.int()),
  nonce: z.string(),
  /** True when this service deployed it. */
  managed: z.boolean(),
  pendingProposals: z.array(safeProposalSchema),
})
