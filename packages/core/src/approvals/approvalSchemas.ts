import * as z from 'zod/mini'
import { storedEffectsSchema } from '../effects/storedEffectsSchema.js'
import { out } from '../schemas/out.js'
import { pageFields } from '../schemas/primitives.js'
import { transactionViewSchema } from '../transactions/transactionSchemas.js'

const approvalStatuses = ['pending', 'approved', 'rejected', 'expired'] as const

/** A human-in-the-loop approval as the API shows it. */
export const approvalSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  walletId: z.string(),
  transactionId: z.string(),
  /** The key that asked: it cannot resolve its own approval. */
  requestedBy: z.string(),
  status: z.enum(approvalStatuses),
  ruleId: z.optional(z.string()),
  reason: z.string(),
  details: z.optional(z.record(z.string(), z.unknown())),
  effects: z
    .optional(storedEffectsSchema)
    .check(
      z.describe('What the paused transaction does: each asset out and in, each allowance or operator grant'),
    ),
  headline: z
    .optional(z.string())
    .check(
      z.describe(
        'What the paused transaction does, in one line from `effects`, the largest outflow first: "Allow 0x… to spend 500 USDC (≈ $500)"',
      ),
    ),
  effectsHash: z
    .optional(z.string())
    .check(
      z.describe('The hash of `effects` this approval binds to: an intent that would do more is not sent'),
    ),
  expiresAt: out.timestamp,
  createdAt: out.timestamp,
  resolvedBy: z.optional(z.string()),
  resolvedAt: z.optional(out.timestamp),
  resolutionReason: z.optional(z.string()),
})

export const listApprovalsSchema = z.strictObject({
  status: z.optional(z.enum(approvalStatuses)),
  ...pageFields({ defaultLimit: 50, maxLimit: 200 }),
})
export type ListApprovalsParameters = z.input<typeof listApprovalsSchema>

/** Whether the wallet can pay a paused intent now: its balance against what approving would need. */
export const approvalFundsSchema = z.object({
  approvalId: z.string(),
  transactionId: z.string(),
  /** False: approving now would fail with insufficient_funds, and the intent would fail unsigned. */
  covered: z.boolean(),
  /**
   * ETH: the wallet's balance and what approving needs: the value plus the maximum gas fee
   * (`gasIncluded`), or the value alone when even that is short (gas is not estimated then), or null
   * when a token it lacks stopped the check first.
   */
  native: z.object({ balance: out.decimal, required: z.nullable(out.decimal), gasIncluded: z.boolean() }),
  /** The ERC-20 an intent pays out of the wallet: its balance and the amount. */
  token: z.optional(z.object({ symbol: z.string(), balance: out.decimal, required: out.decimal })),
})

export type ApprovalFunds = z.infer<typeof approvalFundsSchema>

/** The decided approval and its transaction as it stands after the decision. */
export const resolveApprovalAnswerSchema = z.object({
  approval: approvalSchema,
  transaction: transactionViewSchema,
})

export type ResolveApprovalReturnType = z.infer<typeof resolveApprovalAnswerSchema>
