import { apiKeysCollection } from './apiKeyTypes.js'
import type { PrincipalsContext } from './principalsContext.js'
import type { Principal } from './types.js'

/**
 * True while the key behind an authenticated principal still exists unrevoked in its tenant. A
 * long-lived connection asks this after registering, so a revocation that raced its authentication
 * is caught (later ones arrive as `key.revoked`).
 * @example if (!(await isApiKeyActive(ctx, principal))) socket.close(4401)
 */
export async function isApiKeyActive(
  ctx: Pick<PrincipalsContext, 'storage'>,
  principal: Principal,
): Promise<boolean> {
  const record = await ctx.storage.get(apiKeysCollection, principal.id)
  return record !== undefined && record.tenantId === principal.tenantId && !record.revokedAt
}
