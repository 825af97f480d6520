import type { z } from 'zod'
import { appendAudit } from '../audit/appendAudit.js'
import { ConflictError } from '../errors/errors.js'
import type { createTenantSchema } from './apiKeySchemas.js'
import { type ApiKeyView, type TenantRecord, tenantsCollection, toApiKeyView } from './apiKeyTypes.js'
import { insertApiKey } from './createApiKey.js'
import { generateApiKey } from './hashApiKey.js'
import type { PrincipalsContext } from './principalsContext.js'
import type { Principal } from './types.js'

export type CreateTenantReturnType = { tenant: TenantRecord; apiKey: ApiKeyView; key: string }

/**
 * Creates a tenant and its first admin key (raw key returned once). The operator's root admin alone is
 * declared for it.
 * Tenant names are unique (a `conflict` otherwise).
 * @example const { tenant, key } = await createTenant(ctx, root, { name: 'acme' })
 */
export async function createTenant(
  ctx: PrincipalsContext,
  principal: Principal,
  { name }: z.output<typeof createTenantSchema>,
): Promise<CreateTenantReturnType> {
  const tenant: TenantRecord = {
    id: ctx.newId('ten'),
    name,
    createdAt: ctx.now().toISOString(),
    createdBy: principal.id,
  }
  await ctx.storage.transaction([`tenant-name:${name.toLowerCase()}`], async (tx) => {
    const existing = await tx.query(tenantsCollection, {})
    if (existing.some((other) => other.name.toLowerCase() === name.toLowerCase())) {
      throw new ConflictError('A tenant with this name exists', { details: { name } })
    }
    await tx.insert(tenantsCollection, tenant)
    // In the trail of the operator who made it: the new tenant's own begins with its admin key.
    appendAudit(ctx, tx, principal.tenantId, {
      kind: 'tenant.created',
      payload: { tenantId: tenant.id, name, createdBy: principal.id },
    })
  })
  const key = generateApiKey()
  const record = await insertApiKey(
    ctx,
    { tenantId: tenant.id, name: `${name} admin`, role: 'admin', createdBy: principal.id },
    key,
  )
  return { tenant, apiKey: toApiKeyView(record), key }
}
