import type { z } from 'zod'
import { appendAudit } from '../audit/appendAudit.js'
import type { StorageTx } from '../storage/types.js'
import type { createApiKeySchema } from './apiKeySchemas.js'
import { type ApiKeyRecord, type ApiKeyView, apiKeysCollection, toApiKeyView } from './apiKeyTypes.js'
import { displayPrefix, generateApiKey, hashApiKey } from './hashApiKey.js'
import type { PrincipalsContext } from './principalsContext.js'
import type { Principal } from './types.js'

export type CreateApiKeyReturnType = {
  apiKey: ApiKeyView
  /** The raw key. Shown once: only its hash is stored. */
  key: string
}

/**
 * Issues an API key in the caller's tenant (admins are declared for it).
 * @example const { key } = await createApiKey(ctx, admin, { name: 'trader-bot', role: 'agent' })
 */
export async function createApiKey(
  ctx: PrincipalsContext,
  principal: Principal,
  { name, role }: z.output<typeof createApiKeySchema>,
): Promise<CreateApiKeyReturnType> {
  const key = generateApiKey()
  const record = await insertApiKey(
    ctx,
    { tenantId: principal.tenantId, name, role, createdBy: principal.id },
    key,
  )
  return { apiKey: toApiKeyView(record), key }
}

type ApiKeyFields = Pick<ApiKeyRecord, 'tenantId' | 'name' | 'role'> &
  Partial<Pick<ApiKeyRecord, 'root' | 'createdBy'>>

/** Stores the hash of `rawKey` as a new key record (no role check: callers decide who may). */
export async function insertApiKey(
  ctx: PrincipalsContext,
  fields: ApiKeyFields,
  rawKey: string,
): Promise<ApiKeyRecord> {
  const record = newApiKeyRecord(ctx, fields, rawKey)
  await ctx.storage.transaction([`api-key:${record.hash}`], async (tx) => {
    await tx.insert(apiKeysCollection, record)
    auditKeyCreated(ctx, tx, record)
  })
  return record
}

/** Records a new key in the trail: its id, name, role and who made it (never the key, nor its hash). */
export function auditKeyCreated(
  ctx: Pick<PrincipalsContext, 'now' | 'newId' | 'options'>,
  tx: StorageTx,
  record: ApiKeyRecord,
): void {
  appendAudit(ctx, tx, record.tenantId, {
    kind: 'api_key.created',
    subjects: { apiKeyId: record.id },
    payload: {
      name: record.name,
      role: record.role,
      root: record.root ?? false,
      createdBy: record.createdBy ?? null,
    },
  })
}

/** The record of a new key (only the hash of `rawKey` in it), for a caller that inserts it in its own transaction. */
export function newApiKeyRecord(
  ctx: Pick<PrincipalsContext, 'now' | 'newId'>,
  fields: ApiKeyFields,
  rawKey: string,
): ApiKeyRecord {
  return {
    id: ctx.newId('key'),
    ...fields,
    prefix: displayPrefix(rawKey),
    hash: hashApiKey(rawKey),
    createdAt: ctx.now().toISOString(),
  }
}
