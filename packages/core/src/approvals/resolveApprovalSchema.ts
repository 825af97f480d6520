import * as z from 'zod/mini'
import { displayTextSchema } from '../schemas/primitives.js'

/** Approve or reject: the approval, and an optional reason shown on it in the dashboard (it may span lines). */
export const resolveApprovalSchema = z.strictObject({
  approvalId: z.string().check(z.minLength(1), z.maxLength(100), z.describe('The approval id (apr_…)')),
  reason: z
    .optional(displayTextSchema(500, { multiline: true }))
    .check(z.describe('Why, kept with the decision')),
})
export type ResolveApprovalParameters = z.input<typeof resolveApprovalSchema>
