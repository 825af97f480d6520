import type { AuditBody } from './types.js'

/**
 * The keys an entry's event is indexed by (`EventInput.keys`): its kind, wallet and approval, what
 * `GET /audit` filters by. The storages' migration to keys gives entries written before the same.
 * @example auditEventKeys(body) // ['kind:policy.decision', 'walletId:wal_1']
 */
export function auditEventKeys(body: Pick<AuditBody, 'kind' | 'subjects'>): string[] {
  const keys = [`kind:${body.kind}`]
  if (body.subjects.walletId !== undefined) keys.push(`walletId:${body.subjects.walletId}`)
  if (body.subjects.approvalId !== undefined) keys.push(`approvalId:${body.subjects.approvalId}`)
  return keys
}
