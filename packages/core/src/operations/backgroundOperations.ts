import type { AgentWalletContext } from '../context.js'

// The background work of a context: multi-step operations that outlive the request that started
// them (ENS and identity registrations, paused swaps). Their state is in Storage; this only runs them.

type Runner = { controller: AbortController; running: Map<string, Promise<void>> }

// Keyed by context, not global: each composition root has its own background work, stopped by its close().
const runners = new WeakMap<AgentWalletContext, Runner>()

function runnerOf(ctx: AgentWalletContext): Runner {
  let runner = runners.get(ctx)
  if (!runner || runner.controller.signal.aborted) {
    runner = { controller: new AbortController(), running: new Map() }
    runners.set(ctx, runner)
  }
  return runner
}

/**
 * Runs `drive(id)` in the background once per record and context (a second call while it runs is a no-op).
 * @example runOperation(ctx, record.id, (signal) => advanceEnsRegistration(ctx, record.id, signal))
 */
export function runOperation(
  ctx: AgentWalletContext,
  id: string,
  drive: (signal: AbortSignal) => Promise<void>,
): void {
  const runner = runnerOf(ctx)
  if (runner.running.has(id)) return
  const done = drive(runner.controller.signal)
    .catch(() => undefined)
    .finally(() => runner.running.delete(id))
  runner.running.set(id, done)
}

/**
 * Starts `start(id)` for every record of `collection` in one of `statuses` (start-up reconciliation;
 * idempotent: `start` goes through {@link runOperation}).
 * @example await resumeOperations(ctx, 'swaps', activeSwapStatuses, (id) => continueSwap(ctx, id))
 */
export async function resumeOperations(
  ctx: AgentWalletContext,
  collection: string,
  statuses: readonly string[],
  start: (id: string) => void,
): Promise<void> {
  const pending = await ctx.storage.query(collection, {
    where: { status: statuses },
    orderBy: 'createdAt',
    limit: 1000,
  })
  for (const record of pending) start(record.id)
}

/** Stops background operations of this context and waits for them; their records stay resumable. */
export async function stopOperations(ctx: AgentWalletContext): Promise<void> {
  const runner = runners.get(ctx)
  if (!runner) return
  runner.controller.abort()
  await Promise.all(runner.running.values())
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
