import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { fromStoredOperation } from '../smartWallets/storedOperation.js'
import { bundlerOf, carryOperation } from './carryOperation.js'
import { markOperationMined } from './operationTransitions.js'
import { isCarried, isSigned, type SubmittedOperation, type TransactionRecord } from './types.js'

/**
 * The tracker's pass over smart wallets' intents (`isCarried`): a submitted op's receipt from the
 * bundler (→ confirmed, or failed when its calls reverted), handed to the bundler again as saved once
 * stale (the same op: the same hash, never a second inclusion); a queued one left by a crash or a
 * session account not yet ready, carried again (`carryOperation`: its saved op, or one signed now).
 * @example await trackOperations(ctx, { queued, submitted, staleBefore })
 */
export async function trackOperations(
  ctx: AgentWalletContext,
  {
    queued,
    submitted,
    staleBefore,
  }: { queued: readonly TransactionRecord[]; submitted: readonly TransactionRecord[]; staleBefore: number },
): Promise<void> {
  const stale = (record: TransactionRecord) => Date.parse(record.updatedAt) <= staleBefore
  await Promise.all([
    ...submitted.filter(isSubmittedOperation).map((record) => settleOperation(ctx, record, stale(record))),
    ...queued
      .filter(
        (record) => record.status === 'queued' && !isSigned(record) && isCarried(record) && stale(record),
      )
      .map((record) =>
        record.status === 'queued' && !isSigned(record)
          ? carryOperation(ctx, ctx.chains.get(record.chain), record)
          : undefined,
      ),
  ])
}

async function settleOperation(
  ctx: AgentWalletContext,
  record: SubmittedOperation,
  stale: boolean,
): Promise<void> {
  const bundler = bundlerOf(ctx, record)
  const { userOperation } = record
  try {
    const receipt = await bundler.getUserOperationReceipt(userOperation.hash)
    if (receipt) {
      await markOperationMined(ctx, record, receipt)
      return
    }
    if (stale) await bundler.sendUserOperation(fromStoredOperation(userOperation), userOperation.entryPoint)
  } catch (error) {
    // Out of reach, or refused now (included meanwhile: the next pass reads its receipt).
    if (!isAgentWalletError(error)) throw error
  }
}

function isSubmittedOperation(record: TransactionRecord): record is SubmittedOperation {
  return record.status === 'submitted' && !isSigned(record) && record.userOperation !== undefined
}
