import type { AgentWalletContext } from '../context.js'
import type { StorageTx } from '../storage/types.js'
import { auditEventKeys } from './auditEventKeys.js'
import { hashAuditBody } from './auditHashes.js'
import type { AuditOptions } from './auditOptions.js'
import { auditStream } from './auditStream.js'
import type { AuditBody, AuditInput, StoredAuditEntry } from './types.js'

/**
 * Appends an entry to the tenant's audit trail inside the transaction that saves what it records,
 * so both commit or neither does. Its position (seq) and chain link are fixed at commit, in commit
 * order (see `auditStream`). A no-op when the trail is off (answers undefined), else answers the
 * entry's id and hash.
 * @example appendAudit(ctx, tx, wallet.tenantId, { kind: 'wallet.created', subjects: { walletId }, payload })
 */
export function appendAudit(
  ctx: Pick<AgentWalletContext, 'now' | 'newId'> & {
    options?: { audit?: Pick<AuditOptions, 'signer'> | undefined } | undefined
  },
  tx: StorageTx,
  tenantId: string,
  input: AuditInput,
): { id: string; hash: string } | undefined {
  if (!ctx.options?.audit) return undefined
  return writeAuditEntry(tx, tenantId, input, { at: ctx.now(), id: ctx.newId('aud') })
}

/**
 * Writes an entry whatever the settings: for offline commands (the master key rotation) that run
 * with no context and record what they did in any case.
 * @example writeAuditEntry(tx, 'default', input, { at: new Date(), id: `aud_${randomUUID()}` })
 */
export function writeAuditEntry(
  tx: StorageTx,
  tenantId: string,
  input: AuditInput,
  { at, id }: { at: Date; id: string },
): { id: string; hash: string } {
  const body: AuditBody = {
    v: 1,
    tenantId,
    at: at.toISOString(),
    kind: input.kind,
    subjects: input.subjects ?? {},
    payload: input.payload ?? null,
  }
  const entry: StoredAuditEntry = { ...body, hash: hashAuditBody(body) }
  tx.appendEvent(auditStream(tenantId), {
    id,
    type: `audit.${input.kind}`,
    timestamp: body.at,
    data: entry,
    keys: auditEventKeys(body),
  })
  return { id, hash: entry.hash }
}
