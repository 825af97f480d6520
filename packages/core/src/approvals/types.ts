export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired'

export type ApprovalRecord = {
  id: string
  tenantId: string
  walletId: string
  transactionId: string
  requestedBy: string
  status: ApprovalStatus
  ruleId?: string | undefined
  reason: string
  details?: Record<string, unknown> | undefined
  expiresAt: string
  createdAt: string
  resolvedBy?: string | undefined
  resolvedAt?: string | undefined
  resolutionReason?: string | undefined
}
