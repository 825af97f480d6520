import { timingSafeEqual } from 'node:crypto'
import { BaseError } from '../errors/baseError.js'
import { apiKeysCollection } from './apiKeyTypes.js'
import { hashApiKey } from './hashApiKey.js'
import type { PrincipalsContext } from './principalsContext.js'
import type { Principal } from './types.js'

/**
 * The principal of a raw API key, or `unauthorized` (unknown, revoked or malformed: one answer for all,
 * so a caller learns nothing about which keys exist).
 * @example const principal = await authenticate(ctx, request.headers['x-api-key'])
 */
export async function authenticate(
  ctx: Pick<PrincipalsContext, 'storage'>,
  rawKey: string | undefined,
): Promise<Principal> {
  if (typeof rawKey !== 'string' || rawKey.length === 0)
    throw unauthorized('Missing API key (send it in the X-API-Key header)')
  if (rawKey.length > 200) throw unauthorized()
  const hash = hashApiKey(rawKey)
  const [record] = await ctx.storage.query(apiKeysCollection, { where: { hash }, limit: 1 })
  // The lookup is by hash, so timing reveals nothing about the raw key; the explicit constant-time
  // compare guards adapters whose index lookup might match loosely (collation, prefix indexes).
  if (!record || !sameHash(record.hash, hash) || record.revokedAt) throw unauthorized()
  return {
    tenantId: record.tenantId,
    id: record.id,
    role: record.role,
    ...(record.root ? { root: true } : {}),
  }
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

function unauthorized(message = 'Invalid API key'): BaseError {
  return new BaseError('unauthorized', message)
}
