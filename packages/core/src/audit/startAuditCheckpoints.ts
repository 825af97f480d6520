import type { AgentWalletContext } from '../context.js'
import { tenantOfAuditStream } from './auditStream.js'
import { type ChainHead, checkpointAudit } from './checkpointAudit.js'
import type { StoredAuditEntry } from './types.js'

/**
 * The checkpointer's handle: `stop` signs a last checkpoint for every tenant this process saw;
 * `checkpointAll` does too, still watching (the heads a closing service anchors).
 */
export type AuditCheckpoints = {
  stop(): Promise<void>
  settled(): Promise<void>
  checkpointAll(): Promise<void>
}

/**
 * Watches committed audit entries and signs a checkpoint for a tenant once `checkpointEvery` entries
 * follow its last one; one checkpoint at a time per tenant. Errors go to `onError` (the next entry
 * or `stop` tries again). The same subscription tells the spends memory (`AuditOptions.spends`) which
 * decisions committed: one copy of each committed batch for the trail, not one per use.
 * @example const checkpoints = startAuditCheckpoints(ctx); …; await checkpoints.stop()
 */
export function startAuditCheckpoints(
  ctx: Pick<AgentWalletContext, 'storage' | 'commits' | 'now' | 'newId' | 'options'>,
  hooks: {
    onError?: ((error: unknown) => void) | undefined
    /** After a checkpoint of the tenant (this process's or a replica's) is read: its head, to anchor. */
    onCheckpoint?: ((tenantId: string, head: ChainHead, at: { closing: boolean }) => void) | undefined
  } = {},
): AuditCheckpoints {
  const every = ctx.options.audit?.checkpointEvery ?? 100
  const heads = new Map<string, ChainHead | undefined>()
  const newest = new Map<string, number>()
  const running = new Map<string, Promise<void>>()

  const checkpoint = (tenantId: string, closing = false): Promise<void> => {
    const previous = running.get(tenantId) ?? Promise.resolve()
    const next = previous.then(async () => {
      try {
        const before = heads.get(tenantId)?.checkpointed ?? 0
        const head = await checkpointAudit(ctx, tenantId, heads.get(tenantId))
        heads.set(tenantId, head)
        if (head.checkpointed > before || (closing && head.sealed))
          hooks.onCheckpoint?.(tenantId, head, { closing })
      } catch (error) {
        hooks.onError?.(error)
      }
    })
    running.set(tenantId, next)
    return next
  }

  const unsubscribe = ctx.commits.add((events) => {
    // A decision records its counted spends as changes from an entry this process has seen committed.
    ctx.options.audit?.spends.committed(events)
    for (const event of events) {
      const tenantId = tenantOfAuditStream(event.stream)
      if (tenantId === undefined || (event.data as StoredAuditEntry).kind === 'audit.checkpoint') continue
      newest.set(tenantId, Math.max(newest.get(tenantId) ?? 0, event.seq))
      const since = heads.get(tenantId)?.checkpointed ?? 0
      if (event.seq - since >= every && !running.has(tenantId)) {
        void checkpoint(tenantId).finally(() => running.delete(tenantId))
      }
    }
  })
  const settled = async () => {
    await Promise.all(running.values())
  }
  return {
    settled,
    async checkpointAll() {
      await settled()
      await Promise.all([...newest.keys()].map((tenantId) => checkpoint(tenantId, true)))
    },
    async stop() {
      unsubscribe()
      await settled()
      await Promise.all([...newest.keys()].map((tenantId) => checkpoint(tenantId)))
    },
  }
}
