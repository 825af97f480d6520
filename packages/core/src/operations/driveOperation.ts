import type { AgentWalletContext } from '../context.js'
import { sleep } from './backgroundOperations.js'
import { failOperation } from './failOperation.js'
import {
  chainUnavailable,
  type OperationRecord,
  type Retry,
  type StepMachine,
  type StepRun,
} from './stepMachine.js'

export type DriveOperationOptions<R> = {
  /**
   * Foreground (a request): retry nothing, give up a wait at the request's bound, and throw a
   * step's error after recording it. Background (default): retry what the step calls retryable.
   */
  foreground?: boolean | undefined
  /** Return the record as soon as a step leaves it so (a request answers once a step pauses). */
  until?: ((record: R) => boolean) | undefined
}

/**
 * Runs an operation's steps one after another until its record leaves its active statuses (done,
 * failed), `until` holds, or `signal` aborts (the record stays resumable). A step's error is
 * retried as its step declares; any other ends the record `failed`, with `operation.failed`.
 * Returns the record as it stands then.
 * @example const record = await driveOperation(ctx, ensRegistration, id, signal)
 */
export async function driveOperation<R extends OperationRecord, S extends string>(
  ctx: AgentWalletContext,
  machine: StepMachine<R, S>,
  id: string,
  signal: AbortSignal,
  options: DriveOperationOptions<R> = {},
): Promise<R | undefined> {
  const run: StepRun = { signal, foreground: options.foreground ?? false }
  const tries = new Map<string, number>()
  let record = await machine.load(ctx, id)
  while (record && isActive(machine, record) && !signal.aborted) {
    try {
      const next = await machine.advance(ctx, record, run)
      if (!next) return record
      record = next
      if (options.until?.(record)) return record
    } catch (error) {
      const retry = run.foreground ? undefined : retryOf(machine, record, error, tries)
      if (retry) {
        await sleep(retry.afterMs, signal)
        record = await machine.load(ctx, id)
        continue
      }
      const failed = await failOperation(ctx, machine, record, error)
      if (run.foreground) throw error
      return failed
    }
  }
  return record
}

/**
 * Whether a record still has steps to run.
 * @example if (isActive(swapOperation, record)) runOperation(ctx, swapOperation, record.id)
 */
export function isActive<R extends OperationRecord>(
  machine: Pick<StepMachine<R, string>, 'activeStatuses'>,
  record: R,
): boolean {
  return record.status !== undefined && machine.activeStatuses.includes(record.status)
}

/** The retry the current step declares for `error`, unless it has used up its tries in this run. */
function retryOf<R extends OperationRecord, S extends string>(
  machine: StepMachine<R, S>,
  record: R,
  error: unknown,
  tries: Map<string, number>,
): Retry | undefined {
  const step = machine.steps[machine.stepOf(record)]
  const retry = step.retryable ? step.retryable(error, record) : chainUnavailable(error)
  if (!retry) return undefined
  const tried = (tries.get(retry.reason) ?? 0) + 1
  tries.set(retry.reason, tried)
  return retry.attempts !== undefined && tried >= retry.attempts ? undefined : retry
}
