import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { ValidationError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { requestHash } from './requestHash.js'
import { type IdempotencyRecord, idempotencyRecordId } from './types.js'

export type IdempotencyOptions = { idempotencyKey?: string | undefined }

/**
 * Runs `fn` once per (principal, key): a replay with the same request returns the stored result,
 * a different request under the key is `idempotency_conflict`. Concurrent replays wait for the first.
 * @example await withIdempotency(ctx, principal, 'wallet.create', params, options, () => createWallet(...))
 */
export async function withIdempotency<T>(
  ctx: AgentWalletContext,
  principal: Principal,
  operation: string,
  request: unknown,
  options: IdempotencyOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const key = options.idempotencyKey
  if (key === undefined) return fn()
  assertValidKey(key)
  const id = idempotencyRecordId(principal.tenantId, principal.id, key)
  const hash = requestHash({ operation, request })
  return ctx.storage.transaction([`idempotency:${id}`], async () => {
    const existing = await ctx.storage.get('idempotency', id)
    if (existing) return replay(existing, hash) as T
    const result = await fn()
    await ctx.storage.transaction([], async (tx) => {
      await tx.insert('idempotency', {
        id,
        operation,
        requestHash: hash,
        result,
        resultFormat: 2,
        createdAt: ctx.now().toISOString(),
      })
    })
    return result
  })
}

/** Checks a stored record against a new request's hash. */
export function assertSameRequest(existing: IdempotencyRecord, hash: string): void {
  if (existing.requestHash !== hash) {
    throw new BaseError('idempotency_conflict', 'This Idempotency-Key was used with a different request', {
      details: { operation: existing.operation },
    })
  }
}

function replay(existing: IdempotencyRecord, hash: string): unknown {
  assertSameRequest(existing, hash)
  // The first call happened, but its stored answer predates the declared outputs: replaying it would
  // answer another shape, and running it again would act twice. The caller learns which.
  if (existing.resultFormat !== 2) {
    throw new BaseError(
      'idempotency_conflict',
      'This Idempotency-Key was used before an upgrade changed what this operation answers: the first call was carried out; read its result, or use a new key',
      { details: { operation: existing.operation, reason: 'stored_before_upgrade' } },
    )
  }
  return existing.result
}

/** Keys are opaque, printable and bounded, so they are safe in logs and storage ids. */
export function assertValidKey(key: string): void {
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
    throw new ValidationError('Idempotency-Key must be 1 to 200 printable ASCII characters')
  }
}
