import type { AgentWalletContext } from '../context.js'
import { activeEnsStatuses, type EnsRegistrationRecord } from './types.js'

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

/** Resumes every unfinished registration with `advance` (start-up reconciliation; idempotent). */
export async function resumeOperations(
  ctx: AgentWalletContext,
  advance: (ctx: AgentWalletContext, id: string, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const pending = await ctx.storage.query<EnsRegistrationRecord>('ens_names', {
    where: { status: activeEnsStatuses },
    orderBy: 'createdAt',
    limit: 1000,
  })
  for (const record of pending) runOperation(ctx, record.id, (signal) => advance(ctx, record.id, signal))
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
