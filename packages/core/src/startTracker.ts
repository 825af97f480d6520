import { expireApprovals } from './approvals/resolveApproval.js'
import type { AgentWalletContext } from './context.js'
import { trackGrantRevocations } from './smartWallets/trackGrantRevocations.js'
import { type ChainLeadership, chainLeadership } from './transactions/chainLeadership.js'
import { trackTransactions } from './transactions/trackTransactions.js'
import { watchMemo } from './transactions/watchMined.js'

export type Tracker = { stop(): Promise<void> }

/**
 * Runs the tracker every `trackerIntervalMs`: every carrier's open records (receipts, rebroadcasts, open x402 authorizations), superseded session grants to revoke, approval expiry. A pass never
 * overlaps the previous one; an error in one pass is reported and the next pass runs anyway.
 * When the storage elects leaders (`capabilities.leaderLocks`, e.g. Postgres), only the holder of a
 * chain's tracker lock tracks that chain, so N replicas do not each poll and rebroadcast; the others
 * retry the lock and take over when the holder dies. Transitions re-read under the wallet lock, so
 * this saves work and never decides correctness.
 * @example const tracker = startTracker(ctx, { onError: console.error }); await tracker.stop()
 */
export function startTracker(
  ctx: AgentWalletContext,
  hooks: { onError?: ((error: unknown) => void) | undefined } = {},
): Tracker {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  const memo = watchMemo()
  const leadership: ChainLeadership | undefined =
    ctx.storage.capabilities.leaderLocks && ctx.storage.tryLeaderLock
      ? chainLeadership(ctx.storage, {
          retryMs: Math.max(1_000, ctx.options.trackerIntervalMs),
          onError: hooks.onError,
        })
      : undefined
  const tick = () => {
    running = (async () => {
      try {
        const chains = leadership ? await leadership.held(ctx.chains.list()) : undefined
        if (!chains || chains.length > 0) await trackTransactions(ctx, { chains, memo })
        if (!chains || chains.length > 0) await trackGrantRevocations(ctx, { chains })
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
      await leadership?.release()
    },
  }
}
