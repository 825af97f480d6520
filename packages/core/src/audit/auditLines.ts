import type { Storage } from '../storage/types.js'
import { genesisHash } from './auditHashes.js'
import { auditStream } from './auditStream.js'
import { toAuditLines } from './toAuditLines.js'
import type { AuditLine } from './types.js'

/**
 * A tenant's whole trail in seq order, read a page at a time, each line with its chain values: what
 * an export writes, one JSON line each.
 * @example for await (const line of auditLines(storage, 'default')) out.write(`${JSON.stringify(line)}\n`)
 */
export async function* auditLines(
  storage: Pick<Storage, 'readEvents'>,
  tenantId: string,
  pageSize = 1000,
): AsyncGenerator<AuditLine> {
  let after = 0
  let prevHash = genesisHash
  for (;;) {
    const page = await storage.readEvents(auditStream(tenantId), { after, limit: pageSize })
    const lines = toAuditLines(page, prevHash)
    yield* lines
    if (page.length < pageSize) return
    const last = lines[lines.length - 1]!
    after = last.seq
    prevHash = last.chainHash
  }
}
