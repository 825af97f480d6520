import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { effectsHeadline } from '../schemas/effectsHeadline.js'
import type { Filter } from '../storage/types.js'
import type { listApprovalsSchema } from './approvalSchemas.js'
import type { ApprovalRecord } from './types.js'

/**
 * The tenant's approvals, newest first; agents see the ones they asked for.
 * @example const { approvals } = await listApprovals(ctx, approver, { status: 'pending' })
 */
export async function listApprovals(
  ctx: AgentWalletContext,
  principal: Principal,
  { status, limit, offset }: z.output<typeof listApprovalsSchema>,
): Promise<{ count: number; approvals: ApprovalView[] }> {
  const where: Filter = { tenantId: principal.tenantId }
  if (status) where.status = status
  if (principal.role === 'agent') where.requestedBy = principal.id
  const [count, approvals] = await Promise.all([
    ctx.storage.count('approvals', { where }),
    ctx.storage.query('approvals', {
      where,
      orderBy: 'createdAt',
      order: 'desc',
      limit,
      offset,
    }),
  ])
  return { count, approvals: approvals.map(approvalView) }
}

/**
 * One approval of the principal's tenant (an agent: one it asked for).
 * @example const { approval } = await getApproval(ctx, principal, { approvalId })
 */
export async function getApproval(
  ctx: AgentWalletContext,
  principal: Principal,
  { approvalId }: { approvalId: string },
): Promise<{ approval: ApprovalView }> {
  const approval = await ctx.storage.get('approvals', approvalId)
  const visible =
    approval?.tenantId === principal.tenantId &&
    (principal.role !== 'agent' || approval.requestedBy === principal.id)
  if (!approval || !visible) throw new NotFoundError('Approval', { details: { approvalId } })
  return { approval: approvalView(approval) }
}

/** An approval as answers show it: the record, led by what it does (`headline`, from its effects). */
export type ApprovalView = ApprovalRecord & { headline?: string | undefined }

/**
 * The record with its `headline` (absent for an approval made before effects were stored).
 * @example approvalView(record).headline // 'Allow 0xBEbe… to spend 500 USDC (≈ $500)'
 */
export function approvalView(record: ApprovalRecord): ApprovalView {
  return record.effects ? { ...record, headline: effectsHeadline(record.effects) } : record
}
