import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { registerCallRefresher } from '../transactions/callRefreshers.js'
import { driveOperation } from './driveOperation.js'
import type { AnyStepMachine, OperationRecord, StepMachine } from './stepMachine.js'

// The background work of a context: multi-step operations that outlive the request that started
// them (ENS and identity registrations, paused swaps). Their state is in Storage; this only runs them.

type Runner = {
  controller: AbortController
  running: Map<string, Promise<void>>
  machines: AnyStepMachine[]
}

// Keyed by context, not global: each composition root has its own background work, stopped by its close().
const runners = new WeakMap<AgentWalletContext, Runner>()

function runnerOf(ctx: AgentWalletContext): Runner {
  let runner = runners.get(ctx)
  if (!runner || runner.controller.signal.aborted) {
    runner = { controller: new AbortController(), running: new Map(), machines: runner?.machines ?? [] }
    runners.set(ctx, runner)
  }
  return runner
}

/**
 * Declares the context's multi-step operations (the composition root does, once): what
 * {@link resumeOperations} picks up, and the call refreshers of their steps for `refreshCall`.
 * @example registerOperations(ctx, [ensRegistration, identityRegistration, trackedSwap])
 */
export function registerOperations(ctx: AgentWalletContext, machines: readonly AnyStepMachine[]): void {
  const runner = runnerOf(ctx)
  for (const machine of machines) {
    if (runner.machines.includes(machine)) continue
    runner.machines.push(machine)
    for (const step of Object.values(machine.steps))
      if (step.refreshCall) registerCallRefresher(ctx, step.refreshCall)
  }
}

/**
 * Runs an operation's steps in the background once per record and context (a second call while it
 * runs is a no-op, and answers false). A step's error ends up on the record (`failed`, `operation.failed`); an error
 * that could not be recorded there (storage refused the write) goes to `onBackgroundError`, and
 * the record, still active, resumes at the next start.
 * @example runOperation(ctx, ensRegistration, record.id)
 */
export function runOperation<R extends OperationRecord, S extends string>(
  ctx: AgentWalletContext,
  machine: StepMachine<R, S>,
  id: string,
  drive: (signal: AbortSignal) => Promise<unknown> = (signal) => driveOperation(ctx, machine, id, signal),
): boolean {
  const runner = runnerOf(ctx)
  if (runner.running.has(id)) return false
  const done = drive(runner.controller.signal)
    .then(() => undefined)
    .catch((error: unknown) => reportUnrecorded(ctx, machine, id, error))
    .finally(() => runner.running.delete(id))
  runner.running.set(id, done)
  return true
}

/**
 * Runs an operation's steps for a request: until `until` holds (say, a step paused for approval),
 * its record is done, or a step fails (thrown, after it is recorded); a paused record then goes on
 * in the background, in the same slot (once per record and context).
 * @example const first = await runOperationUntil(ctx, identityRegistration, record.id, (r) => r.status === 'awaiting_approval')
 */
export function runOperationUntil<R extends OperationRecord, S extends string>(
  ctx: AgentWalletContext,
  machine: StepMachine<R, S>,
  id: string,
  until: (record: R) => boolean,
): Promise<R | undefined> {
  return new Promise((resolve, reject) => {
    const started = runOperation(ctx, machine, id, async (signal) => {
      let first: R | undefined
      try {
        first = await driveOperation(ctx, machine, id, signal, { foreground: true, until })
      } catch (error) {
        reject(error)
        return
      }
      resolve(first)
      if (first && until(first)) await driveOperation(ctx, machine, id, signal)
    })
    if (!started) {
      reject(
        new BaseError('conflict', `The ${machine.name} operation ${id} is already running`, {
          details: { operation: machine.name, operationId: id },
        }),
      )
    }
  })
}

/**
 * Starts every record still in an active status of the registered operations, or of `machines`
 * (start-up reconciliation; idempotent: each goes through {@link runOperation}).
 * @example await resumeOperations(ctx)
 */
export async function resumeOperations(
  ctx: AgentWalletContext,
  machines: readonly AnyStepMachine[] = runnerOf(ctx).machines,
): Promise<void> {
  for (const machine of machines) {
    const pending = await ctx.storage.query(machine.collection, {
      where: { status: machine.activeStatuses },
      orderBy: 'createdAt',
      limit: 1000,
    })
    for (const record of pending) runOperation(ctx, machine, record.id)
  }
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

/** An error the run could not record on its record: handed to `onBackgroundError`, with which record. */
function reportUnrecorded(
  ctx: AgentWalletContext,
  machine: AnyStepMachine,
  id: string,
  error: unknown,
): void {
  ctx.options.onBackgroundError?.(
    new BaseError('internal', `The ${machine.name} operation ${id} stopped; it resumes at the next start`, {
      details: { operation: machine.name, operationId: id },
      cause: error,
    }),
  )
}
