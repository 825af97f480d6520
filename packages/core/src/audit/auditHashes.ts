import { createHash } from 'node:crypto'
import { canonicalJson } from './canonicalJson.js'
import type { AuditBody } from './types.js'

/** The chain value before a tenant's first entry. */
export const genesisHash = '0'.repeat(64)

/**
 * sha256 (hex) of an entry body's canonical JSON: the entry's own hash.
 * @example const hash = hashAuditBody(body)
 */
export function hashAuditBody(body: AuditBody): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex')
}

/**
 * The chain value through an entry: sha256 of the value before it and its hash, so changing,
 * dropping or reordering any entry changes every value after it (and the next signed checkpoint).
 * @example const head = entries.reduce((prev, entry) => nextChainHash(prev, entry.hash), genesisHash)
 */
export function nextChainHash(prevHash: string, hash: string): string {
  return createHash('sha256').update(`${prevHash}${hash}`).digest('hex')
}

/** The message a checkpoint signs: the tenant, the position and the chain value there. */
export function checkpointMessage(tenantId: string, upto: number, head: string): Buffer {
  return Buffer.from(canonicalJson({ tenantId, upto, head, type: 'agentwallet.audit.checkpoint' }))
}
