import type { StoredEvent } from '../storage/types.js'
import { genesisHash, nextChainHash } from './auditHashes.js'
import type { AuditLine, StoredAuditEntry } from './types.js'

/**
 * A stretch of a tenant's audit stream as lines, each with its seq and chain values, continuing from
 * the chain value `prevHash` before the first (genesis for seq 1). The stored hash is carried as
 * stored, not recomputed: checking it is the verifier's work.
 * @example const lines = toAuditLines(await storage.readEvents(auditStream(tenantId)))
 */
export function toAuditLines(events: readonly StoredEvent[], prevHash = genesisHash): AuditLine[] {
  let prev = prevHash
  return events.map((event) => {
    const entry = event.data as StoredAuditEntry
    const chainHash = nextChainHash(prev, entry.hash)
    const line: AuditLine = { seq: event.seq, ...entry, prevHash: prev, chainHash }
    prev = chainHash
    return line
  })
}
