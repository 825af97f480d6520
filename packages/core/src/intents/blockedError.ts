import { PolicyBlockedError } from '../errors/errors.js'
import type { TransactionRecord } from '../transactions/types.js'

/**
 * The `policy_blocked` error for a blocked record, with the rule and its numbers.
 * @example if (record.status === 'blocked') throw blockedError(record)
 */
export function blockedError(record: TransactionRecord): PolicyBlockedError {
  return new PolicyBlockedError(record.policy.reason, {
    details: {
      ruleId: record.policy.ruleId,
      ruleType: record.policy.ruleType,
      transactionId: record.id,
      ...record.policy.details,
    },
  })
}
