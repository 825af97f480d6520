import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { appendAudit } from './appendAudit.js'
import { checkpointMessage, genesisHash, nextChainHash } from './auditHashes.js'
import { auditStream } from './auditStream.js'
import type { SealContext } from './sealTrail.js'
import type { CheckpointPayload, StoredAuditEntry } from './types.js'

/**
 * Where a process has read a tenant's chain to: the chain value through `seq`, and `sealed` when
 * the entry at `seq` is a checkpoint over every entry before it.
 */
export type ChainHead = { seq: number; chainHash: string; checkpointed: number; sealed: boolean }

/**
 * Reads the tenant's trail on from `head` (from the start when undefined) and returns the new head.
 * @example head = await advanceHead(ctx, tenantId, head)
 */
export async function advanceHead(
  ctx: Pick<AgentWalletContext, 'storage'>,
  tenantId: string,
  head: ChainHead = { seq: 0, chainHash: genesisHash, checkpointed: 0, sealed: false },
): Promise<ChainHead> {
  let { seq, chainHash, checkpointed, sealed } = head
  for (;;) {
    const page = await ctx.storage.readEvents(auditStream(tenantId), { after: seq, limit: 1000 })
    for (const event of page) {
      const entry = event.data as StoredAuditEntry
      chainHash = nextChainHash(chainHash, entry.hash)
      seq = event.seq
      const upto = entry.kind === 'audit.checkpoint' ? (entry.payload as CheckpointPayload).upto : undefined
      sealed = upto === seq - 1
      if (upto !== undefined) checkpointed = upto
    }
    if (page.length < 1000) return { seq, chainHash, checkpointed, sealed }
  }
}

/**
 * Signs a checkpoint over the tenant's chain through its newest entry, unless the newest is already
 * one over all before it. Replicas racing for the same position write it once (`audit_checkpoints` is keyed by it).
 * Returns the head after it.
 * @example head = await checkpointAudit(ctx, 'default', head)
 */
export async function checkpointAudit(
  ctx: SealContext,
  tenantId: string,
  from?: ChainHead,
): Promise<ChainHead> {
  const audit = ctx.options.audit
  const head = await advanceHead(ctx, tenantId, from)
  // A checkpoint written after an entry it does not cover (a racing append) does not count as sealed.
  if (!audit || head.seq === 0 || head.sealed) return head
  const payload: CheckpointPayload = {
    upto: head.seq,
    head: head.chainHash,
    publicKey: audit.signer.publicKey,
    signature: audit.signer.sign(checkpointMessage(tenantId, head.seq, head.chainHash)),
  }
  try {
    // `audit_checkpoints` is read by id only: no table or index of its own (storageSchema), so replicas
    // of an older version share the schema unchanged.
    await ctx.storage.transaction([], async (tx) => {
      await tx.insert('audit_checkpoints', { id: `${tenantId}:${head.seq}`, tenantId, upto: head.seq })
      appendAudit(ctx, tx, tenantId, { kind: 'audit.checkpoint', payload })
    })
  } catch (error) {
    if (!isAgentWalletError(error, 'storage_conflict')) throw error
  }
  return advanceHead(ctx, tenantId, head)
}
