import type { AgentWalletContext } from '../context.js'
import { appendAudit } from './appendAudit.js'
import type { AuditInput } from './types.js'

/**
 * Appends an entry in a commit of its own, for what no commit saves: a signature used before any is
 * made (an x402 header, a proof handed to the caller), recorded before it is used.
 * @example await recordAudit(ctx, tenantId, { kind: 'vault.signature', subjects, payload })
 */
export async function recordAudit(
  ctx: Pick<AgentWalletContext, 'now' | 'newId' | 'storage' | 'options'>,
  tenantId: string,
  input: AuditInput,
): Promise<void> {
  if (!ctx.options.audit) return
  await ctx.storage.transaction([], async (tx) => appendAudit(ctx, tx, tenantId, input))
}
