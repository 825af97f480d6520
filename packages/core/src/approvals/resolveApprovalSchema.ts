import * as z from 'zod'
import { displayTextSchema } from '../schemas/primitives.js'

/** Approve or reject: the approval, and an optional reason shown on it in the dashboard (it may span lines). */
export const resolveApprovalSchema = z.strictObject({
  approvalId: z.string().min(1).max(100).describe('The approval id (apr_…)'),
  reason: displayTextSchema(500, { multiline: true }).optional().describe('Why, kept with the decision'),
})
export type ResolveApprovalParameters = z.input<typeof resolveApprovalSchema>
