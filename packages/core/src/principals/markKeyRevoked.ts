import { appendAudit } from '../audit/appendAudit.js'
import type { AgentWalletContext } from '../context.js'
import { appendEvent } from '../events/appendEvent.js'
import type { StorageTx } from '../storage/types.js'
import { type ApiKeyRecord, apiKeysCollection } from './apiKeyTypes.js'
import type { PrincipalsContext } from './principalsContext.js'

/**
 * Writes a key's revocation and its `key.revoked` event in the caller's transaction: the event is
 * what tells every replica to close the key's open WebSockets, so no revocation may skip it.
 * @example await ctx.storage.transaction([`api-key-id:${id}`], (tx) => markKeyRevoked(ctx, tx, record, admin.id))
 */
export async function markKeyRevoked(
  ctx: Pick<AgentWalletContext, 'now' | 'newId'> & Pick<PrincipalsContext, 'options'>,
  tx: StorageTx,
  record: ApiKeyRecord,
  revokedBy: string,
): Promise<ApiKeyRecord> {
  const revoked: ApiKeyRecord = { ...record, revokedAt: ctx.now().toISOString() }
  await tx.put(apiKeysCollection, revoked)
  appendEvent(ctx, tx, record.tenantId, 'key.revoked', {
    keyId: record.id,
    name: record.name,
    role: record.role,
    revokedBy,
  })
  appendAudit(ctx, tx, record.tenantId, {
    kind: 'api_key.revoked',
    subjects: { apiKeyId: record.id },
    payload: { name: record.name, role: record.role, revokedBy },
  })
  return revoked
}
