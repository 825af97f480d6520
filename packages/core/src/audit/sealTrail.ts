import type { AgentWalletContext } from '../context.js'
import { auditLines } from './auditLines.js'
import type { AuditOptions } from './auditOptions.js'
import { type ChainHead, checkpointAudit } from './checkpointAudit.js'
import type { AuditLine } from './types.js'

/** What sealing a trail needs: storage, ids, the clock and, to sign, the audit key's signer. */
export type SealContext = Pick<AgentWalletContext, 'storage' | 'now' | 'newId'> & {
  options: { audit?: Pick<AuditOptions, 'signer'> | undefined }
}

/**
 * Signs a checkpoint over the tenant's trail through its newest entry (unless the newest already is
 * one over all before it), again while appends racing it land after it (a few tries): the head
 * answered is sealed unless the trail kept moving. Without a signer, the head as it is.
 * @example const head = await sealTrail(ctx, 'default')
 */
export async function sealTrail(ctx: SealContext, tenantId: string): Promise<ChainHead> {
  let head = await checkpointAudit(ctx, tenantId)
  for (let tries = 0; ctx.options.audit && !head.sealed && head.seq > 0 && tries < 5; tries++)
    head = await checkpointAudit(ctx, tenantId, head)
  return head
}

/**
 * A tenant's trail for export: sealed at export time (`sealTrail`), then read through that
 * checkpoint, so the export ends with a signature over the head it contains (entries appended since
 * are the next export's).
 * @example for await (const line of sealedAuditLines(ctx, 'default')) out.write(`${JSON.stringify(line)}\n`)
 */
export async function* sealedAuditLines(ctx: SealContext, tenantId: string): AsyncGenerator<AuditLine> {
  const head = await sealTrail(ctx, tenantId)
  for await (const line of auditLines(ctx.storage, tenantId)) {
    if (line.seq > head.seq) return
    yield line
  }
}
