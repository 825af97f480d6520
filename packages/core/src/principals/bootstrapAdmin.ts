import { appendAudit } from '../audit/appendAudit.js'
import { ConflictError } from '../errors/errors.js'
import { parseInput } from '../schemas/parseInput.js'
import type { StorageTx } from '../storage/types.js'
import { providedKeySchema } from './apiKeySchemas.js'
import {
  type ApiKeyRecord,
  type ApiKeyView,
  apiKeysCollection,
  tenantsCollection,
  toApiKeyView,
} from './apiKeyTypes.js'
import { auditKeyCreated, newApiKeyRecord } from './createApiKey.js'
import { generateApiKey, hashApiKey } from './hashApiKey.js'
import { markKeyRevoked } from './markKeyRevoked.js'
import type { PrincipalsContext } from './principalsContext.js'
import { defaultTenantId } from './types.js'

export type BootstrapAdminParameters = {
  /** An operator-chosen root admin key (e.g. from `AGENTWALLET_ADMIN_KEY`, read by the caller). */
  adminKey?: string | undefined
}

/** `revoked`: the root keys the provided key replaced, revoked now (log their ids, never a key). */
export type BootstrapAdminReturnType =
  /** A key was generated now: `key` is the raw key, to show once. */
  | { status: 'created'; apiKey: ApiKeyView; key: string; revoked: ApiKeyView[] }
  /** The provided key was stored now (the caller already knows it). */
  | { status: 'adopted'; apiKey: ApiKeyView; key?: undefined; revoked: ApiKeyView[] }
  /** Keys already exist (or the provided one does): no key was added. */
  | { status: 'existing'; apiKey?: ApiKeyView | undefined; key?: undefined; revoked: ApiKeyView[] }

/** Why a provided key cannot be the root key, in `details.reason` of the `conflict`. */
export type BootstrapAdminConflictReason = 'revoked' | 'not_root'

/**
 * First start: with no API keys at all, creates the root admin key of the `default` tenant. A provided
 * key IS the root key: stored if new, and every other active root key is revoked in the same
 * transaction, so replicas starting at once end with exactly one. A revoked key is never restored: a
 * provided key that was revoked (an older value, replaced) is a `conflict` (`reason: 'revoked'`), as is
 * one that exists as a non-root key (`reason: 'not_root'`). Tenant admin keys are not root keys and stay.
 * @example const boot = await bootstrapAdmin(ctx, { adminKey: env.AGENTWALLET_ADMIN_KEY }); if (boot.key) print(boot.key)
 */
export async function bootstrapAdmin(
  ctx: PrincipalsContext,
  parameters: BootstrapAdminParameters = {},
): Promise<BootstrapAdminReturnType> {
  const provided =
    parameters.adminKey === undefined ? undefined : parseInput(providedKeySchema, parameters.adminKey)
  const locks = ['api-keys:bootstrap', ...(provided === undefined ? [] : [`api-key:${hashApiKey(provided)}`])]
  // One lock for the whole decision: two processes starting at once end with one root key, not two.
  return ctx.storage.transaction(locks, async (tx) => {
    if (!(await tx.get(tenantsCollection, defaultTenantId))) {
      await tx.put(tenantsCollection, {
        id: defaultTenantId,
        name: defaultTenantId,
        createdAt: ctx.now().toISOString(),
      })
      appendAudit(ctx, tx, defaultTenantId, {
        kind: 'tenant.created',
        payload: { tenantId: defaultTenantId, name: defaultTenantId, createdBy: null },
      })
    }
    if (provided === undefined) {
      if ((await tx.count(apiKeysCollection)) > 0) return { status: 'existing', revoked: [] } as const
      const key = generateApiKey()
      const record = newApiKeyRecord(ctx, rootKeyFields, key)
      await tx.insert(apiKeysCollection, record)
      auditKeyCreated(ctx, tx, record)
      return { status: 'created', apiKey: toApiKeyView(record), key, revoked: [] } as const
    }
    const [stored] = await tx.query(apiKeysCollection, {
      where: { hash: hashApiKey(provided) },
      limit: 1,
    })
    if (stored) assertUsableAsRoot(stored)
    const record = stored ?? newApiKeyRecord(ctx, rootKeyFields, provided)
    if (!stored) {
      await tx.insert(apiKeysCollection, record)
      auditKeyCreated(ctx, tx, record)
    }
    const revoked = await revokeOtherRootKeys(ctx, tx, record.id)
    return { status: stored ? 'existing' : 'adopted', apiKey: toApiKeyView(record), revoked } as const
  })
}

const rootKeyFields = { tenantId: defaultTenantId, name: 'root admin', role: 'admin', root: true } as const

function assertUsableAsRoot(stored: ApiKeyRecord): void {
  // Restoring a replaced value would undo the replacement (it may have leaked): the newest value wins.
  if (stored.revokedAt)
    throw new ConflictError('The provided root admin key is revoked: a newer one replaced it', {
      details: { keyId: stored.id, reason: 'revoked' satisfies BootstrapAdminConflictReason },
    })
  if (!stored.root || stored.tenantId !== defaultTenantId || stored.role !== 'admin')
    throw new ConflictError('The provided root admin key exists as a key that is not the root key', {
      details: { keyId: stored.id, reason: 'not_root' satisfies BootstrapAdminConflictReason },
    })
}

async function revokeOtherRootKeys(
  ctx: PrincipalsContext,
  tx: StorageTx,
  keepId: string,
): Promise<ApiKeyView[]> {
  const roots = await tx.query(apiKeysCollection, {
    where: { tenantId: defaultTenantId, root: true },
  })
  const revoked: ApiKeyView[] = []
  for (const root of roots) {
    if (root.id === keepId || root.revokedAt) continue
    // With key.revoked, so every replica closes the old root key's sockets too.
    revoked.push(toApiKeyView(await markKeyRevoked(ctx, tx, root, keepId)))
  }
  return revoked
}
