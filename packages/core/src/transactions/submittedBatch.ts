import type { AgentWalletContext } from '../context.js'
import type { Storage } from '../storage/types.js'
import { writeSubmitted } from './laneTransitions.js'
import { isSigned, type SignedQueuedTransaction, type SubmittedTransaction } from './types.js'

/**
 * queued (signed) → submitted: the node accepted the raw transaction. Answers at once; the change is
 * saved in the next batch (`queueSubmitted`), off the send's critical path.
 * @example return markSubmitted(ctx, record)
 */
export function markSubmitted(
  ctx: AgentWalletContext,
  record: SignedQueuedTransaction,
): SubmittedTransaction {
  const now = ctx.now().toISOString()
  const next: SubmittedTransaction = { ...record, status: 'submitted', submittedAt: now, updatedAt: now }
  queueSubmitted(ctx, next)
  return next
}

type Batches = { open: SubmittedTransaction[] | undefined; inFlight: Set<Promise<void>> }

/** Per storage, so two AgentWallets in one process (tests, replicas) never share a batch. */
const batchesOf = new WeakMap<Storage, Batches>()

/**
 * Saves queued → submitted off the send's critical path: the records the node accepted within one
 * turn of the event loop move in one commit, with their `tx.submitted` events. Nothing depends on it
 * being durable: a signed tx still `queued` after a crash is broadcast again by the reconciler, and
 * the node's "already known" moves it then.
 * @example queueSubmitted(ctx, { ...record, status: 'submitted', submittedAt: now, updatedAt: now })
 */
export function queueSubmitted(ctx: AgentWalletContext, next: SubmittedTransaction): void {
  let batches = batchesOf.get(ctx.storage)
  if (!batches) {
    batches = { open: undefined, inFlight: new Set() }
    batchesOf.set(ctx.storage, batches)
  }
  if (batches.open) {
    batches.open.push(next)
    return
  }
  const batch = [next]
  const state = batches
  state.open = batch
  const flushing: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => {
      state.open = undefined
      return saveSubmitted(ctx, batch)
    })
    // A failed commit leaves the records queued and signed: the tracker rebroadcasts and moves them.
    // Nothing is lost, but the operator hears of it.
    .catch((error: unknown) => ctx.options.onBackgroundError?.(error))
    .finally(() => state.inFlight.delete(flushing))
  state.inFlight.add(flushing)
}

/**
 * Waits until every queued submitted status is saved (or given up); `close` calls it first.
 * @example await settleSubmitted(ctx.storage)
 */
export async function settleSubmitted(storage: Storage): Promise<void> {
  const batches = batchesOf.get(storage)
  while (batches && batches.inFlight.size > 0) await Promise.all(batches.inFlight)
}

async function saveSubmitted(ctx: AgentWalletContext, batch: SubmittedTransaction[]): Promise<void> {
  await ctx.storage.transaction([], async (tx) => {
    for (const next of batch) {
      const current = await tx.get('transactions', next.id)
      // Only the same signature, still queued, moves: the tracker or a replacement may be ahead of us.
      if (current?.status !== 'queued' || !isSigned(current) || current.hash !== next.hash) continue
      await writeSubmitted(ctx, tx, current, { submittedAt: next.submittedAt, updatedAt: next.updatedAt })
    }
  })
}
