import { appendAudit } from '../audit/appendAudit.js'
import type { AgentWalletContext } from '../context.js'
import { boundEffects } from '../effects/boundEffects.js'
import type { StoredEffects } from '../effects/types.js'
import type { BaseError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import { auditDecision } from '../policy/auditDecision.js'
import { type IntentDecision, recordedDecision } from '../policy/evaluateIntent.js'
import type { Principal } from '../principals/types.js'
import type { StorageTx } from '../storage/types.js'
import { appendHitl, writeFailed } from '../transactions/transitions.js'
import type {
  ClosedTransaction,
  PendingApprovalTransaction,
  StoredUsd,
  UnsignedQueuedTransaction,
} from '../transactions/types.js'
import type { DecidedApproval, ExpiredApproval, PendingApproval } from './types.js'

// Every step of an approval's lifecycle. Each decides the approval and moves its paused transaction
// in one commit, with `approval.resolved`; an approved intent is then signed and broadcast by the
// money path (`commitIntent`).

/**
 * pending → approved, its intent pending_approval → queued (unsigned), in one commit: the approval is
 * spent before the intent is signed, so a crash between the two leaves it for the tracker to sign.
 * @example const resolved = await markApproved(ctx, approval, queued, principal, reason)
 */
export async function markApproved(
  ctx: AgentWalletContext,
  approval: PendingApproval,
  queued: UnsignedQueuedTransaction,
  principal: Principal,
  reason: string | undefined,
  decision?: IntentDecision | undefined,
): Promise<DecidedApproval> {
  const resolved = decided(ctx, approval, 'approved', principal, reason)
  await ctx.storage.transaction([], async (tx) => {
    await writeResolution(tx, ctx, resolved, decision)
    await tx.put('transactions', queued)
  })
  return resolved
}

/**
 * pending_approval → queued, in memory: the approved intent to sign, valued in USD now if it was not
 * when made (a USD rule added while it waited).
 * @example const queued = approvedTransaction(ctx, transaction, transaction.usd ?? decision.usd)
 */
export function approvedTransaction(
  ctx: AgentWalletContext,
  transaction: PendingApprovalTransaction,
  usd: StoredUsd | undefined,
): UnsignedQueuedTransaction {
  return { ...transaction, ...(usd ? { usd } : {}), status: 'queued', updatedAt: ctx.now().toISOString() }
}

/**
 * Writes a decided or expired approval with its `approval.resolved` event in `tx`, and in the audit
 * trail who decided (the API key), the effects' hash approved, and the policy's decision at the time.
 */
async function writeResolution(
  tx: StorageTx,
  ctx: AgentWalletContext,
  resolved: DecidedApproval | ExpiredApproval,
  decision?: IntentDecision | undefined,
): Promise<void> {
  await tx.put('approvals', resolved)
  const subjects = {
    walletId: resolved.walletId,
    transactionId: resolved.transactionId,
    approvalId: resolved.id,
  }
  if (decision) auditDecision(ctx, tx, resolved.tenantId, decision, subjects)
  appendAudit(ctx, tx, resolved.tenantId, {
    kind: 'approval.resolved',
    subjects: { ...subjects, apiKeyId: resolved.resolvedBy },
    payload: {
      resolution: resolved.status,
      resolvedBy: resolved.resolvedBy ?? null,
      reason: resolved.resolutionReason ?? null,
      effectsHash: resolved.effectsHash ?? null,
    },
  })
  appendEvent(ctx, tx, resolved.tenantId, 'approval.resolved', {
    approvalId: resolved.id,
    transactionId: resolved.transactionId,
    walletId: resolved.walletId,
    resolution: resolved.status,
    resolvedBy: resolved.resolvedBy,
    reason: resolved.resolutionReason,
  })
}

/**
 * pending → approved, its intent queued → failed, unsigned, in one commit: the money left while the
 * intent waited, so the approval is spent and the reservation released.
 * @example await markApprovedShort(ctx, approval, queued, principal, reason, error, decision)
 */
export async function markApprovedShort(
  ctx: AgentWalletContext,
  approval: PendingApproval,
  queued: UnsignedQueuedTransaction,
  principal: Principal,
  reason: string | undefined,
  error: BaseError,
  decision: IntentDecision,
): Promise<DecidedApproval> {
  const resolved = decided(ctx, approval, 'approved', principal, reason)
  await ctx.storage.transaction([], async (tx) => {
    await writeResolution(tx, ctx, resolved, decision)
    await writeFailed(ctx, tx, queued, error)
  })
  return resolved
}

/**
 * pending → rejected, its intent → blocked: a deny rule met when it was approved (the approver is
 * named; the reason is the rule's).
 * @example throw blockedError(await markBlocked(ctx, approval, transaction, principal, decision, usd))
 */
export async function markBlocked(
  ctx: AgentWalletContext,
  approval: PendingApproval,
  transaction: PendingApprovalTransaction,
  principal: Principal,
  decision: IntentDecision,
  usd: StoredUsd | undefined,
): Promise<ClosedTransaction> {
  const blocked: ClosedTransaction = {
    ...transaction,
    ...(usd ? { usd } : {}),
    status: 'blocked',
    policy: recordedDecision(decision),
    updatedAt: ctx.now().toISOString(),
  }
  const resolved = decided(ctx, approval, 'rejected', principal, `Blocked at approval: ${decision.reason}`)
  await save(ctx, resolved, blocked, decision)
  return blocked
}

/**
 * pending → rejected by an approver, its intent → rejected, releasing the reserved spend.
 * @example const { approval, transaction } = await markRejected(ctx, approval, transaction, principal, reason)
 */
export async function markRejected(
  ctx: AgentWalletContext,
  approval: PendingApproval,
  transaction: PendingApprovalTransaction,
  principal: Principal,
  reason: string | undefined,
): Promise<{ approval: DecidedApproval; transaction: ClosedTransaction }> {
  const rejected: ClosedTransaction = {
    ...transaction,
    status: 'rejected',
    updatedAt: ctx.now().toISOString(),
  }
  const resolved = decided(ctx, approval, 'rejected', principal, reason)
  await save(ctx, resolved, rejected)
  return { approval: resolved, transaction: rejected }
}

/**
 * pending → expired, its intent → expired: the window elapsed, the reserved spend is released.
 * @example await markExpired(ctx, approval, transaction)
 */
export async function markExpired(
  ctx: AgentWalletContext,
  approval: PendingApproval,
  transaction: PendingApprovalTransaction,
): Promise<void> {
  const now = ctx.now().toISOString()
  const expired: ClosedTransaction = { ...transaction, status: 'expired', updatedAt: now }
  const resolved: ExpiredApproval = {
    ...approval,
    status: 'expired',
    resolvedBy: undefined,
    resolvedAt: now,
    resolutionReason: 'Approval window elapsed',
  }
  await save(ctx, resolved, expired)
}

/**
 * pending → rejected, and a new pending approval for the same paused intent with the effects it
 * would have now, in one commit (`approval.resolved`, `policy.hitl`): what was approved is not what
 * would be sent, so a human must look again.
 * @example const again = await markEffectsChanged(ctx, approval, transaction, principal, effects, why)
 */
export async function markEffectsChanged(
  ctx: AgentWalletContext,
  approval: PendingApproval,
  transaction: PendingApprovalTransaction,
  principal: Principal,
  effects: StoredEffects,
  why: string,
): Promise<PendingApproval> {
  const now = ctx.now()
  const resolved = decided(ctx, approval, 'rejected', principal, `Effects changed since approval: ${why}`)
  const again: PendingApproval = {
    ...approval,
    id: ctx.newId('apr'),
    ...boundEffects(effects),
    expiresAt: new Date(now.getTime() + ctx.options.approvalTtlMs).toISOString(),
    createdAt: now.toISOString(),
  }
  const paused: PendingApprovalTransaction = {
    ...transaction,
    effects,
    approvalId: again.id,
    updatedAt: now.toISOString(),
  }
  await ctx.storage.transaction([], async (tx) => {
    await writeResolution(tx, ctx, resolved)
    await tx.insert('approvals', again)
    await tx.put('transactions', paused)
    appendHitl(ctx, tx, paused, again)
  })
  return again
}

function decided(
  ctx: AgentWalletContext,
  approval: PendingApproval,
  status: DecidedApproval['status'],
  principal: Principal,
  reason: string | undefined,
): DecidedApproval {
  return {
    ...approval,
    status,
    resolvedBy: principal.id,
    resolvedAt: ctx.now().toISOString(),
    resolutionReason: reason,
  }
}

async function save(
  ctx: AgentWalletContext,
  resolved: DecidedApproval | ExpiredApproval,
  transaction: ClosedTransaction,
  decision?: IntentDecision | undefined,
): Promise<void> {
  await ctx.storage.transaction([], async (tx) => {
    await writeResolution(tx, ctx, resolved, decision)
    await tx.put('transactions', transaction)
  })
}
