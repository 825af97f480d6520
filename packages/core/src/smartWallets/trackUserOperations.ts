import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import {
  isSigned,
  type SubmittedUserOperation,
  type TransactionRecord,
  type UnsignedQueuedTransaction,
} from '../transactions/types.js'
import { bundlerOf, carryUserOperation } from './carryUserOperation.js'
import { fromStoredUserOperation } from './storedUserOperation.js'
import { markUserOperationMined } from './userOperationTransitions.js'

/**
 * The tracker's pass over smart wallets' intents (the user-operation carrier's records): a submitted op's receipt from the
 * bundler (→ confirmed, or failed when its calls reverted), handed to the bundler again as saved once
 * stale (the same op: the same hash, never a second inclusion); a queued one left by a crash or a
 * session account not yet ready, carried again (`carryUserOperation`: its saved op, or one signed now).
 * @example await trackUserOperations(ctx, { queued, submitted, staleBefore })
 */
export async function trackUserOperations(
  ctx: AgentWalletContext,
  {
    queued,
    submitted,
    staleBefore,
  }: { queued: readonly TransactionRecord[]; submitted: readonly TransactionRecord[]; staleBefore: number },
): Promise<void> {
  const stale = (record: TransactionRecord) => Date.parse(record.updatedAt) <= staleBefore
  await Promise.all([
    ...submitted
      .filter(isSubmittedUserOperation)
      .map((record) => settleUserOperation(ctx, record, stale(record))),
    ...queued
      .filter(isUnsignedQueued)
      .filter(stale)
      .map((record) => carryUserOperation(ctx, ctx.chains.get(record.chain), record)),
  ])
}

async function settleUserOperation(
  ctx: AgentWalletContext,
  record: SubmittedUserOperation,
  stale: boolean,
): Promise<void> {
  const bundler = bundlerOf(ctx, record)
  const { userOperation } = record
  try {
    const receipt = await bundler.getUserOperationReceipt(userOperation.hash)
    if (receipt) {
      await markUserOperationMined(ctx, record, receipt)
      return
    }
    if (stale)
      await bundler.sendUserOperation(fromStoredUserOperation(userOperation), userOperation.entryPoint)
  } catch (error) {
    // Out of reach, or refused now (included meanwhile: the next pass reads its receipt).
    if (!isAgentWalletError(error)) throw error
  }
}

function isUnsignedQueued(record: TransactionRecord): record is UnsignedQueuedTransaction {
  return record.status === 'queued' && !isSigned(record)
}

function isSubmittedUserOperation(record: TransactionRecord): record is SubmittedUserOperation {
  return record.status === 'submitted' && !isSigned(record) && record.userOperation !== undefined
}
