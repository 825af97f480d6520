import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import type { StorageTx } from '../storage/types.js'
import type { CallRefresher } from '../transactions/callRefreshers.js'

/** The multi-step operations core runs: the prefix of their steps' idempotency keys. */
export type OperationName = 'ens' | 'identity' | 'swap'

/** What the kernel reads of an operation's record. */
export type OperationRecord = {
  id: string
  tenantId: string
  walletId: string
  status?: string | undefined
  updatedAt?: string | undefined
  /** Who asked: its steps run on the money path as this principal, also after a restart. */
  requestedBy?: { id: string; role: 'agent' | 'approver' | 'admin' } | undefined
}

/** What an operation record keeps of the error that ended it. */
export type OperationError = { code: string; message: string }

/**
 * How one run of an operation goes. Background: wait as long as it takes, retry what the step
 * calls retryable. Foreground (a request): give up waiting after the request's bound, retry nothing.
 */
export type StepRun = { signal: AbortSignal; foreground: boolean }

/** Another try of a failed step: after `afterMs`, at most `attempts` times in one run (default: unbounded). */
export type Retry = { reason: string; afterMs: number; attempts?: number | undefined }

/** What a step of an operation declares beyond the work itself. */
export type StepDeclaration<R> = {
  /** Whether a step's error is worth another try, and when (default: {@link chainUnavailable}). */
  retryable?(error: unknown, record: R): Retry | undefined
  /**
   * New bytes for this step's stored transaction when it is signed later than it was built (a late
   * approval, a stuck-tx replacement): a short-lived signature or deadline in the call. Undefined
   * for a transaction that is not this step's, or that needs nothing new.
   */
  refreshCall?: CallRefresher | undefined
}

/**
 * A multi-step operation as the kernel runs it: a record in a collection, a status per step, one
 * function that runs the step the record is on. The kernel owns the loop, the retries, recording a
 * failure (and its `operation.failed` event), resume at start and stop at close.
 */
export type StepMachine<R extends OperationRecord, S extends string> = {
  name: OperationName
  /** The collection of its records, and the statuses in which a record still has steps to run. */
  collection: string
  activeStatuses: readonly string[]
  /** What a step's idempotency request calls the record's id (hashed with it: fixed once records exist). */
  idName: 'registrationId' | 'swapId'
  load(ctx: AgentWalletContext, id: string): Promise<R | undefined>
  save(tx: StorageTx, record: R): Promise<void>
  /** The step a record is on. */
  stepOf(record: R): S
  steps: { [step in S]: StepDeclaration<R> }
  /**
   * Runs the record's current step and returns the record after it, as saved; undefined when it
   * stopped waiting (the run was aborted, or a foreground wait ran out): the record is as it was.
   */
  advance(ctx: AgentWalletContext, record: R, run: StepRun): Promise<R | undefined>
  /** The record as it ends when a step fails with `error`. */
  failed(record: R, error: OperationError): R
}

/**
 * A step machine whatever its record and steps: what the registry of a context holds. (Its
 * functions are methods, which TypeScript compares bivariantly, so every machine is one.)
 */
export type AnyStepMachine = StepMachine<OperationRecord, string>

/** How long a step waits after the chain did not answer before it tries again. */
const chainRetryMs = 2_000

/**
 * The retry every step has unless it declares its own: the chain did not answer, so try again in 2 s.
 * @example retryable: (error) => chainUnavailable(error)
 */
export function chainUnavailable(error: unknown): Retry | undefined {
  return isAgentWalletError(error) && error.code === 'chain_unavailable'
    ? { reason: 'chain_unavailable', afterMs: chainRetryMs }
    : undefined
}

/**
 * The idempotency of a step's submit: `{name}:{id}:{step}`, so a resumed run replays what an
 * earlier run sent instead of sending it again.
 * @example await submitIntent(ctx, principal, wallet, draft, stepIdempotency(swapMachine, record.id, 'swap'))
 */
export function stepIdempotency(
  machine: Pick<AnyStepMachine, 'name' | 'idName'>,
  id: string,
  step: string,
): { idempotencyKey: string; request: Record<string, string> } {
  return { idempotencyKey: `${machine.name}:${id}:${step}`, request: { [machine.idName]: id, step } }
}
