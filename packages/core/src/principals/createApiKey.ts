import { ForbiddenError } from '../errors/errors.js'
import { parseInput } from '../schemas/parseInput.js'
import { type CreateApiKeyParameters, createApiKeySchema } from './apiKeySchemas.js'
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
 * Issues an API key in the caller's tenant. Admins only.
 * @example const { key } = await createApiKey(ctx, admin, { name: 'trader-bot', role: 'agent' })
 */
export async function createApiKey(
  ctx: PrincipalsContext,
  principal: Principal,
  parameters: CreateApiKeyParameters,
): Promise<CreateApiKeyReturnType> {
  if (principal.role !== 'admin') throw new ForbiddenError('Only admin keys may manage API keys')
  const { name, role } = parseInput(createApiKeySchema, parameters)
  const key = generateApiKey()
  const record = await insertApiKey(
    ctx,
    { tenantId: principal.tenantId, name, role, createdBy: principal.id },
    key,
  )
  return { apiKey: toApiKeyView(record), key }
}

/** Stores the hash of `rawKey` as a new key record (no role check: callers decide who may). */
export async function insertApiKey(
  ctx: PrincipalsContext,
  fields: Pick<ApiKeyRecord, 'tenantId' | 'name' | 'role'> &
    Partial<Pick<ApiKeyRecord, 'root' | 'createdBy'>>,
  rawKey: string,
): Promise<ApiKeyRecord> {
  const record: ApiKeyRecord = {
    id: ctx.newId('key'),
    ...fields,
    prefix: displayPrefix(rawKey),
    hash: hashApiKey(rawKey),
    createdAt: ctx.now().toISOString(),
  }
  await ctx.storage.transaction([`api-key:${record.hash}`], (tx) => tx.insert(apiKeysCollection, record))
  return record
}
