import { ForbiddenError } from '../errors/errors.js'
import { type SealContext, sealedAuditLines } from './sealTrail.js'

/**
 * The caller's tenant's whole trail as JSON lines (one entry each, with its chain values), read a
 * page at a time and ending with a checkpoint signed at export time over the head it contains
 * (`sealedAuditLines`): what `GET /audit/export` streams and `agentwallet audit verify` reads. Admins only.
 * @example for await (const line of exportAudit(ctx, admin)) out.write(line)
 */
export function exportAudit(
  ctx: SealContext,
  principal: { tenantId: string; role: string },
): AsyncGenerator<string> {
  // Checked now, not at the first read: a stream's headers are sent before its first line.
  if (principal.role !== 'admin') throw new ForbiddenError('Only admin keys may export the audit trail')
  return jsonLines(ctx, principal.tenantId)
}

async function* jsonLines(ctx: SealContext, tenantId: string): AsyncGenerator<string> {
  for await (const line of sealedAuditLines(ctx, tenantId)) yield `${JSON.stringify(line)}\n`
}
