import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import type { IntentDraft } from '../intents/types.js'
import type { Principal } from '../principals/types.js'
import { type SubmitResult, submitIntent } from '../transactions/submitIntent.js'
import { type OperationRecord, type StepMachine, stepIdempotency } from './stepMachine.js'

/**
 * Sends one step's transaction through the money path as the principal who asked for the
 * operation, from `walletId` (default: the record's wallet), under the step's idempotency key: a
 * resumed run gets the earlier answer back instead of sending it again.
 * @example const { transaction } = await submitStep(ctx, ensRegistration, record, 'commit', commitDraft(chain, record))
 */
export async function submitStep<R extends OperationRecord, S extends string>(
  ctx: AgentWalletContext,
  machine: StepMachine<R, S>,
  record: R,
  step: S,
  draft: IntentDraft,
  walletId: string = record.walletId,
): Promise<SubmitResult> {
  const wallet = await ctx.storage.get('wallets', walletId)
  if (!wallet) {
    throw new BaseError('internal', `The wallet of ${machine.name} operation ${record.id} is gone`, {
      details: { operation: machine.name, operationId: record.id, walletId },
    })
  }
  // Records from before `requestedBy` was kept ran as their wallet's owner.
  const principal: Principal = {
    tenantId: record.tenantId,
    ...(record.requestedBy ?? { id: wallet.ownerId, role: 'agent' }),
  }
  return submitIntent(ctx, principal, wallet, draft, stepIdempotency(machine, record.id, step))
}
