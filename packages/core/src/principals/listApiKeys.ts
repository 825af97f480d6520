import { type ApiKeyView, apiKeysCollection, toApiKeyView } from './apiKeyTypes.js'
import type { PrincipalsContext } from './principalsContext.js'
import type { Principal } from './types.js'

/**
 * The API keys of the caller's tenant (revoked ones too, marked), oldest first.
 * @example const { apiKeys } = await listApiKeys(ctx, admin)
 */
export async function listApiKeys(
  ctx: PrincipalsContext,
  principal: Principal,
): Promise<{ count: number; apiKeys: ApiKeyView[] }> {
  const records = await ctx.storage.query(apiKeysCollection, {
    where: { tenantId: principal.tenantId },
    orderBy: 'createdAt',
  })
  return { count: records.length, apiKeys: records.map(toApiKeyView) }
}
