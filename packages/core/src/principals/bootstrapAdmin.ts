import { parseInput } from '../schemas/parseInput.js'
import { providedKeySchema } from './apiKeySchemas.js'
import {
  type ApiKeyRecord,
  type ApiKeyView,
  apiKeysCollection,
  type TenantRecord,
  tenantsCollection,
  toApiKeyView,
} from './apiKeyTypes.js'
import { insertApiKey } from './createApiKey.js'
import { generateApiKey, hashApiKey } from './hashApiKey.js'
import type { PrincipalsContext } from './principalsContext.js'
import { defaultTenantId } from './types.js'

export type BootstrapAdminParameters = {
  /** An operator-chosen root admin key (e.g. from `AGENTWALLET_ADMIN_KEY`, read by the caller). */
  adminKey?: string | undefined
}

export type BootstrapAdminReturnType =
  /** A key was generated now: `key` is the raw key, to show once. */
  | { status: 'created'; apiKey: ApiKeyView; key: string }
  /** The provided key was stored now (the caller already knows it). */
  | { status: 'adopted'; apiKey: ApiKeyView; key?: undefined }
  /** Keys already exist (or the provided one does): nothing changed. */
  | { status: 'existing'; apiKey?: ApiKeyView | undefined; key?: undefined }

/**
 * First start: with no API keys at all, creates the root admin key of the `default` tenant. A provided
 * key is adopted as a root admin key whenever it is not stored yet, so `AGENTWALLET_ADMIN_KEY` always works.
 * @example const boot = await bootstrapAdmin(ctx, { adminKey: env.AGENTWALLET_ADMIN_KEY }); if (boot.key) print(boot.key)
 */
export async function bootstrapAdmin(
  ctx: PrincipalsContext,
  parameters: BootstrapAdminParameters = {},
): Promise<BootstrapAdminReturnType> {
  const provided =
    parameters.adminKey === undefined ? undefined : parseInput(providedKeySchema, parameters.adminKey)
  // One lock for the whole decision: two processes starting at once create one root key, not two.
  return ctx.storage.transaction(['api-keys:bootstrap'], async (tx) => {
    if (!(await tx.get<TenantRecord>(tenantsCollection, defaultTenantId))) {
      await tx.put(tenantsCollection, {
        id: defaultTenantId,
        name: defaultTenantId,
        createdAt: ctx.now().toISOString(),
      })
    }
    if (provided !== undefined) {
      const [stored] = await tx.query<ApiKeyRecord>(apiKeysCollection, {
        where: { hash: hashApiKey(provided) },
        limit: 1,
      })
      if (stored) return { status: 'existing', apiKey: toApiKeyView(stored) } as const
    } else if ((await tx.count(apiKeysCollection)) > 0) {
      return { status: 'existing' } as const
    }
    const key = provided ?? generateApiKey()
    const record = await insertApiKey(
      ctx,
      { tenantId: defaultTenantId, name: 'root admin', role: 'admin', root: true },
      key,
    )
    return provided !== undefined
      ? ({ status: 'adopted', apiKey: toApiKeyView(record) } as const)
      : ({ status: 'created', apiKey: toApiKeyView(record), key } as const)
  })
}
