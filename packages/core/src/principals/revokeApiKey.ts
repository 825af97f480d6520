import { ForbiddenError, NotFoundError } from '../errors/errors.js'
import { type ApiKeyRecord, type ApiKeyView, apiKeysCollection, toApiKeyView } from './apiKeyTypes.js'
import type { PrincipalsContext } from './principalsContext.js'
import type { Principal } from './types.js'

/**
 * Revokes a key of the caller's tenant; it stops authenticating at once. Admins only; revoking
 * twice is a no-op; another tenant's key is `not_found`.
 * @example await revokeApiKey(ctx, admin, 'key_…')
 */
export async function revokeApiKey(
  ctx: PrincipalsContext,
  principal: Principal,
  keyId: string,
): Promise<ApiKeyView> {
  if (principal.role !== 'admin') throw new ForbiddenError('Only admin keys may manage API keys')
  return ctx.storage.transaction([`api-key-id:${keyId}`], async (tx) => {
    const record = await tx.get<ApiKeyRecord>(apiKeysCollection, keyId)
    if (!record || record.tenantId !== principal.tenantId)
      throw new NotFoundError('API key', { details: { id: keyId } })
    if (record.revokedAt) return toApiKeyView(record)
    const revoked: ApiKeyRecord = { ...record, revokedAt: ctx.now().toISOString() }
    await tx.put(apiKeysCollection, revoked)
    return toApiKeyView(revoked)
  })
}
