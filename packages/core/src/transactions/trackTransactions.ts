import type { AgentWalletContext } from '../context.js'
import type { Filter } from '../storage/types.js'
import { type CarrierName, carrierNameOf, type TrackPass } from './carrier.js'
import type { TransactionRecord } from './types.js'
import { type WatchMemo, watchMined } from './watchMined.js'

/**
 * One pass of the tracker: mined records not yet final re-checked against the canonical chain
 * (`watchMined`: → finalized, or back to their carrier after a reorg), then every open record handed
 * to its carrier's pass (`Carrier.track`: receipts, resends, what a crash left). With `all`, every
 * open record is looked at at once (start-up reconciliation); otherwise only stale ones are resent.
 * `chains` limits the pass to those chain names (the ones this process leads); default every chain.
 * `memo` carries what the previous pass found canonical (`watchMemo`), so it is not read again.
 * @example await trackTransactions(ctx, { all: true })
 */
export async function trackTransactions(
  ctx: AgentWalletContext,
  options: { all?: boolean; chains?: readonly string[] | undefined; memo?: WatchMemo | undefined } = {},
): Promise<void> {
  const where: Filter = options.chains ? { chain: options.chains } : {}
  // First, so a record reorged out is `submitted` again before its carrier looks for receipts.
  await watchMined(ctx, options)
  const [submitted, queued] = await Promise.all(
    (['submitted', 'queued'] as const).map((status) =>
      ctx.storage.query('transactions', {
        where: { status, ...where },
        orderBy: 'createdAt',
        limit: 1000,
      }),
    ),
  )
  const all = options.all === true
  const staleBefore = ctx.now().getTime() - (all ? -1 : ctx.options.rebroadcastAfterMs)
  const bySubmitted = byCarrier(submitted ?? [])
  const byQueued = byCarrier(queued ?? [])
  await Promise.all(
    Object.values(ctx.carriers).map((carrier) => {
      const pass: TrackPass = {
        submitted: bySubmitted.get(carrier.name) ?? [],
        queued: byQueued.get(carrier.name) ?? [],
        staleBefore,
        all,
        chains: options.chains,
        where,
      }
      return carrier.track(ctx, pass)
    }),
  )
}

function byCarrier(records: readonly TransactionRecord[]): Map<CarrierName, TransactionRecord[]> {
  const grouped = new Map<CarrierName, TransactionRecord[]>()
  for (const record of records) {
    const name = carrierNameOf(record)
    const group = grouped.get(name)
    if (group) group.push(record)
    else grouped.set(name, [record])
  }
  return grouped
}
