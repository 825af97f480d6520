import type { KeyName } from './apiKeySchemas.js'
import { apiKeysCollection } from './apiKeyTypes.js'
import type { PrincipalsContext } from './principalsContext.js'
import type { Principal } from './types.js'

/**
 * Names of the API keys of the caller's tenant (revoked ones too: history names them), so the ids
 * approvals carry (`requestedBy`, `resolvedBy`) can be shown as people. Approvers and admins only:
 * an agent never learns other keys' names.
 * @example const { keys } = await listKeyNames(ctx, approver)
 */
export async function listKeyNames(
  ctx: PrincipalsContext,
  principal: Principal,
): Promise<{ keys: KeyName[] }> {
  const records = await ctx.storage.query(apiKeysCollection, {
    where: { tenantId: principal.tenantId },
    orderBy: 'createdAt',
  })
  return {
    keys: records.map(({ id, name, role, revokedAt }) => ({
      id,
      name,
      role,
      revoked: revokedAt !== undefined,
    })),
  }
}
