import { z } from 'zod'
import { storedEffectsSchema } from '../effects/storedEffectsSchema.js'
import { out } from '../schemas/out.js'
import { pageFields } from '../schemas/primitives.js'

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
  ruleId: z.string().optional(),
  reason: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
  effects: storedEffectsSchema
    .optional()
    .describe('What the paused transaction does: each asset out and in, each allowance or operator grant'),
  effectsHash: z
    .string()
    .optional()
    .describe('The hash of `effects` this approval binds to: an intent that would do more is not sent'),
  expiresAt: out.timestamp,
  createdAt: out.timestamp,
  resolvedBy: z.string().optional(),
  resolvedAt: out.timestamp.optional(),
  resolutionReason: z.string().optional(),
})

export const listApprovalsSchema = z.strictObject({
  status: z.enum(approvalStatuses).optional(),
  ...pageFields({ defaultLimit: 50, maxLimit: 200 }),
})
export type ListApprovalsParameters = z.input<typeof listApprovalsSchema>
