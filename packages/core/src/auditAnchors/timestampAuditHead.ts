import { requestTimestamp, type TimestampPayload, timestampedMessage } from '../audit/auditTimestamps.js'
import { recordAudit } from '../audit/recordAudit.js'
import type { AgentWalletContext } from '../context.js'
import type { AuditTimestampOptions } from './auditAnchorOptions.js'

/**
 * Asks the timestamp authority for a token over a tenant's head and records it in the tenant's
 * trail (`audit.timestamp`, covered by the next checkpoint), where `verify` checks it.
 * @example await timestampAuditHead(ctx, { url }, 'default', { upto: 101, head })
 */
export async function timestampAuditHead(
  ctx: AgentWalletContext,
  authority: AuditTimestampOptions,
  tenantId: string,
  head: { upto: number; head: string },
): Promise<void> {
  const token = await requestTimestamp(authority.url, timestampedMessage(tenantId, head.upto, head.head))
  // The authority's host only: a URL may carry credentials.
  const payload: TimestampPayload = { ...head, authority: new URL(authority.url).host, token }
  await recordAudit(ctx, tenantId, { kind: 'audit.timestamp', payload })
}
