import { ConflictError, ForbiddenError } from '../errors/errors.js'
import { parseInput } from '../schemas/parseInput.js'
import { type CreateTenantParameters, createTenantSchema } from './apiKeySchemas.js'
import { type ApiKeyView, type TenantRecord, tenantsCollection, toApiKeyView } from './apiKeyTypes.js'
import { insertApiKey } from './createApiKey.js'
import { generateApiKey } from './hashApiKey.js'
import type { PrincipalsContext } from './principalsContext.js'
import type { Principal } from './types.js'

export type CreateTenantReturnType = { tenant: TenantRecord; apiKey: ApiKeyView; key: string }

/**
 * Creates a tenant and its first admin key (raw key returned once). Only the operator's root admin may.
 * Tenant names are unique (a `conflict` otherwise).
 * @example const { tenant, key } = await createTenant(ctx, root, { name: 'acme' })
 */
export async function createTenant(
  ctx: PrincipalsContext,
  principal: Principal,
  parameters: CreateTenantParameters,
): Promise<CreateTenantReturnType> {
  if (!principal.root) throw new ForbiddenError('Only the root admin key may create tenants')
  const { name } = parseInput(createTenantSchema, parameters)
  const tenant: TenantRecord = {
    id: ctx.newId('ten'),
    name,
    createdAt: ctx.now().toISOString(),
    createdBy: principal.id,
  }
  await ctx.storage.transaction([`tenant-name:${name.toLowerCase()}`], async (tx) => {
    const existing = await tx.query<TenantRecord>(tenantsCollection, {})
    if (existing.some((other) => other.name.toLowerCase() === name.toLowerCase())) {
      throw new ConflictError('A tenant with this name exists', { details: { name } })
    }
    await tx.insert(tenantsCollection, tenant)
  })
  const key = generateApiKey()
  const record = await insertApiKey(
    ctx,
    { tenantId: tenant.id, name: `${name} admin`, role: 'admin', createdBy: principal.id },
    key,
  )
  return { tenant, apiKey: toApiKeyView(record), key }
}
