import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import { type ApiKeyRecord, apiKeysCollection } from '../principals/apiKeyTypes.js'
import type { Principal } from '../principals/types.js'

/**
 * The API key an agent scope names, if the principal may see it: a key of its tenant, and for an
 * agent its own. Anything else is `not_found`, as a wallet is (`findWallet`), so keys do not leak.
 * @example const key = await findAgentKey(ctx, admin, 'key_…')
 */
export async function findAgentKey(
  ctx: Pick<AgentWalletContext, 'storage'>,
  principal: Principal,
  keyId: string,
): Promise<ApiKeyRecord> {
  const key = await ctx.storage.get(apiKeysCollection, keyId)
  if (!key || key.tenantId !== principal.tenantId || (principal.role === 'agent' && key.id !== principal.id))
    throw new NotFoundError('API key', { details: { id: keyId } })
  return key
}
