import { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { pageFields } from '../schemas/primitives.js'
import type { Filter } from '../storage/types.js'
import type { ApprovalRecord } from './types.js'

export const listApprovalsSchema = z.strictObject({
  status: z.enum(['pending', 'approved', 'rejected', 'expired']).optional(),
  ...pageFields({ defaultLimit: 50, maxLimit: 200 }),
})
export type ListApprovalsParameters = z.input<typeof listApprovalsSchema>

/**
 * The tenant's approvals, newest first; agents see the ones they asked for.
 * @example const { approvals } = await listApprovals(ctx, approver, { status: 'pending' })
 */
export async function listApprovals(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: ListApprovalsParameters = {},
): Promise<{ count: number; approvals: ApprovalRecord[] }> {
  const { status, limit, offset } = parseInput(listApprovalsSchema, parameters)
  const where: Filter = { tenantId: principal.tenantId }
  if (status) where.status = status
  if (principal.role === 'agent') where.requestedBy = principal.id
  const [count, approvals] = await Promise.all([
    ctx.storage.count('approvals', { where }),
    ctx.storage.query<ApprovalRecord>('approvals', {
      where,
      orderBy: 'createdAt',
      order: 'desc',
      limit,
      offset,
    }),
  ])
  return { count, approvals }
}

/** One approval of the principal's tenant. */
export async function getApproval(
  ctx: AgentWalletContext,
  principal: Principal,
  approvalId: string,
): Promise<ApprovalRecord> {
  const approval = await ctx.storage.get<ApprovalRecord>('approvals', approvalId)
  const visible =
    approval?.tenantId === principal.tenantId &&
    (principal.role !== 'agent' || approval.requestedBy === principal.id)
  if (!approval || !visible) throw new NotFoundError('Approval', { details: { approvalId } })
  return approval
}
