import type { ChainHead } from '../audit/checkpointAudit.js'
import type { AgentWalletContext } from '../context.js'
import { anchorAuditHead } from './anchorAuditHead.js'
import type { AuditAnchorOptions, AuditTimestampOptions } from './auditAnchorOptions.js'
import { timestampAuditHead } from './timestampAuditHead.js'

/**
 * The anchorer's handle: `checkpointed` after each checkpoint (a closing service's always anchored);
 * `stop` waits for every send started and starts no more. A head is anchored once.
 */
export type AuditAnchors = {
  checkpointed(tenantId: string, head: ChainHead, at: { closing: boolean }): void
  /** Once every send started has returned (their entries committed). */
  settled(): Promise<void>
  stop(): Promise<void>
}

/**
 * Anchors every `every`-th checkpoint of each tenant and the last one before close, on the chain
 * (`anchorAuditHead`) and with the timestamp authority (`timestampAuditHead`), one head at a time in
 * checkpoint order. A failed send goes to `onError`: the next anchor vouches for everything before
 * it too (a chain value covers the whole chain behind it), so nothing is retried.
 * @example const anchors = startAuditAnchors(ctx, { wallet }); startAuditCheckpoints(ctx, { onCheckpoint: anchors.checkpointed })
 */
export function startAuditAnchors(
  ctx: AgentWalletContext,
  {
    anchor,
    timestamp,
  }: { anchor?: AuditAnchorOptions | undefined; timestamp?: AuditTimestampOptions | undefined },
  hooks: { onError?: ((error: unknown) => void) | undefined } = {},
): AuditAnchors {
  const every = anchor?.every ?? 1
  const counts = new Map<string, number>()
  const anchored = new Map<string, number>()
  let queue: Promise<void> = Promise.resolve()
  let stopped = false
  return {
    checkpointed(tenantId, head, { closing }) {
      const count = (counts.get(tenantId) ?? 0) + 1
      counts.set(tenantId, count)
      if (stopped || (count % every !== 0 && !closing) || (anchored.get(tenantId) ?? 0) >= head.seq) return
      anchored.set(tenantId, head.seq)
      queue = queue.then(async () => {
        const anchored = { upto: head.seq, head: head.chainHash }
        const publish = [
          anchor && anchorAuditHead(ctx, anchor, tenantId, anchored),
          timestamp && timestampAuditHead(ctx, timestamp, tenantId, anchored),
        ]
        for (const settled of await Promise.allSettled(publish))
          if (settled.status === 'rejected') hooks.onError?.(settled.reason)
      })
    },
    settled: () => queue,
    async stop() {
      await queue
      stopped = true
    },
  }
}
