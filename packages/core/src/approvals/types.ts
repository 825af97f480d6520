import type { StoredEffects } from '../effects/types.js'

export type ApprovalStatus = ApprovalRecord['status']

/** What every approval carries, whatever its status. */
type ApprovalBase = {
  id: string
  tenantId: string
  walletId: string
  transactionId: string
  requestedBy: string
  ruleId?: string | undefined
  reason: string
  details?: Record<string, unknown> | undefined
  /** What the paused transaction does, as the approver is shown it; approving binds to `effectsHash`. */
  effects?: StoredEffects | undefined
  /** `effectsHash(effects)`: an approved intent whose effects went beyond these is not sent. */
  effectsHash?: string | undefined
  expiresAt: string
  createdAt: string
}

/** Waiting for an approver, until `expiresAt`. */
export type PendingApproval = ApprovalBase & {
  status: 'pending'
  resolvedBy?: undefined
  resolvedAt?: undefined
  resolutionReason?: undefined
}

/** Decided by an approver (`resolvedBy`); a deny rule met at approval rejects it too. */
export type DecidedApproval = ApprovalBase & {
  status: 'approved' | 'rejected'
  resolvedBy: string
  resolvedAt: string
  resolutionReason?: string | undefined
}

/** Its window elapsed before anyone decided. */
export type ExpiredApproval = ApprovalBase & {
  status: 'expired'
  resolvedBy?: undefined
  resolvedAt: string
  resolutionReason?: string | undefined
}

/** An approval, in one of its lifecycle's states (the steps between them: `transitions.ts`). */
export type ApprovalRecord = PendingApproval | DecidedApproval | ExpiredApproval
