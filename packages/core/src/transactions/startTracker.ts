import { expireApprovals } from '../approvals/resolveApproval.js'
import type { AgentWalletContext } from '../context.js'
import { trackTransactions } from './trackTransactions.js'

export type Tracker = { stop(): Promise<void> }

/**
 * Runs the tracker every `trackerIntervalMs`: receipts, rebroadcasts, approval expiry. A pass never
 * overlaps the previous one; an error in one pass is reported and the next pass runs anyway.
 * @example const tracker = startTracker(ctx, { onError: console.error }); await tracker.stop()
 */
export function startTracker(
  ctx: AgentWalletContext,
  hooks: { onError?: (error: unknown) => void } = {},
): Tracker {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  const tick = () => {
    running = (async () => {
      try {
        await trackTransactions(ctx)
        await expireApprovals(ctx)
      } catch (error) {
        hooks.onError?.(error)
      }
    })()
    void running.then(() => {
      if (!stopped) timer = setTimeout(tick, ctx.options.trackerIntervalMs)
    })
  }
  timer = setTimeout(tick, ctx.options.trackerIntervalMs)
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
