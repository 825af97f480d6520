/**
 * A remembered mutating request: the first result is returned for a replay with the same body;
 * another body under the same key is `idempotency_conflict`. Never pruned by count.
 */
export type IdempotencyRecord = {
  id: string
  operation: string
  requestHash: string
  /** For sends: the transaction the request created (its current state is the replayed answer). */
  transactionId?: string | undefined
  /** For other operations: the JSON result of the first call. */
  result?: unknown
  /**
   * The shape `result` has: 2 since each operation answers its declared output (records written
   * before carry none, and are not replayed as if they had it).
   */
  resultFormat?: 2 | undefined
  createdAt: string
}

/** Idempotency keys are scoped to the calling principal. */
export function idempotencyRecordId(tenantId: string, principalId: string, key: string): string {
  return `${tenantId}:${principalId}:${key}`
}
