import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import type { OperationError, OperationRecord, StepMachine } from './stepMachine.js'

/**
 * Ends an operation `failed`: its record keeps the error, and `operation.failed` is emitted in the
 * same commit. Returns the failed record as saved.
 * @example const failed = await failOperation(ctx, ensRegistration, record, error)
 */
export async function failOperation<R extends OperationRecord, S extends string>(
  ctx: AgentWalletContext,
  machine: StepMachine<R, S>,
  record: R,
  error: unknown,
): Promise<R> {
  const reason = operationError(error)
  const failed = { ...machine.failed(record, reason), updatedAt: ctx.now().toISOString() }
  await ctx.storage.transaction([], async (tx) => {
    await machine.save(tx, failed)
    appendEvent(ctx, tx, failed.tenantId, 'operation.failed', {
      operation: machine.name,
      operationId: failed.id,
      walletId: failed.walletId,
      step: machine.stepOf(record),
      error: reason,
    })
  })
  return failed
}

/**
 * What an operation record keeps of the error that ended it: its code and short message, never
 * the text of an unexpected error.
 * @example operationError(new BaseError('policy_blocked', 'Blocked')) // { code: 'policy_blocked', message: 'Blocked' }
 */
export function operationError(error: unknown): OperationError {
  if (isAgentWalletError(error)) return { code: error.code, message: error.shortMessage }
  return { code: 'internal', message: 'The operation stopped on an unexpected error' }
}
