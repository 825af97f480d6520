import { NotFoundError } from '../errors/errors.js'
import { type ApiKeyView, apiKeysCollection, toApiKeyView } from './apiKeyTypes.js'
import { markKeyRevoked } from './markKeyRevoked.js'
import type { PrincipalsContext } from './principalsContext.js'
import type { Principal } from './types.js'

/**
 * Revokes a key of the caller's tenant; it stops authenticating at once, and `key.revoked` (in the
 * same commit) closes its open WebSockets on every replica. Revoking twice is a no-op; another
 * tenant's key is `not_found`.
 * @example await revokeApiKey(ctx, admin, { keyId: 'key_…' })
 */
export async function revokeApiKey(
  ctx: PrincipalsContext,
  principal: Principal,
  { keyId }: { keyId: string },
): Promise<{ apiKey: ApiKeyView }> {
  return ctx.storage.transaction([`api-key-id:${keyId}`], async (tx) => {
    const record = await tx.get(apiKeysCollection, keyId)
    if (!record || record.tenantId !== principal.tenantId)
      throw new NotFoundError('API key', { details: { id: keyId } })
    if (record.revokedAt) return { apiKey: toApiKeyView(record) }
    return { apiKey: toApiKeyView(await markKeyRevoked(ctx, tx, record, principal.id)) }
  })
}
