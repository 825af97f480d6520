import type { UserOperationReceipt } from 'viem/account-abstraction'
import { appendAudit } from '../audit/appendAudit.js'
import { userOperationSigned } from '../audit/userOperationSigned.js'
import type { AgentWalletContext } from '../context.js'
import { toStoredEffects } from '../effects/toStoredEffects.js'
import { BaseError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import type { StorageTx } from '../storage/types.js'
import { actualEffectsOf, appendEffectsDiffered } from '../transactions/minedEffects.js'
import { txPayload, writeFailed, writeLeftBlock } from '../transactions/transitions.js'
import {
  isSigned,
  type MinedUserOperation,
  type StoredUserOperation,
  type SubmittedUserOperation,
  type TransactionRecord,
  type UnpausedTransaction,
  type UnsignedQueuedTransaction,
} from '../transactions/types.js'

// The steps of a smart wallet's intent, carried by a user operation (`carryUserOperation`): its op saved
// (signed, durable) → submitted (the bundler took it) → confirmed / failed by the op's receipt.

/**
 * queued → queued with its signed op, unless another carrier saved one first (then that one, as
 * saved: an op is never signed twice for an intent). The record as it now stands.
 * @example const saved = await saveUserOperation(ctx, record, toStoredUserOperation(op, { hash, entryPoint }))
 */
export async function saveUserOperation(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction,
  userOperation: StoredUserOperation,
): Promise<TransactionRecord | undefined> {
  return ctx.storage.transaction([], async (tx) => {
    const current = await tx.get('transactions', record.id)
    if (current?.status !== 'queued' || isSigned(current) || current.userOperation) return current
    const next: UnsignedQueuedTransaction = { ...current, userOperation, updatedAt: ctx.now().toISOString() }
    await tx.put('transactions', next)
    appendAudit(ctx, tx, next.tenantId, {
      kind: 'vault.signature',
      subjects: { walletId: next.walletId, transactionId: next.id, keyId: userOperation.sender },
      payload: userOperationSigned(userOperation, next.chainId),
    })
    return next
  })
}

/**
 * queued (op saved) → submitted, with `tx.submitted`: the bundler took the op. Once only: a carrier
 * that finds the intent moved on (the tracker carried it meanwhile) answers it as it stands.
 */
export async function markUserOperationSubmitted(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction & { userOperation: StoredUserOperation },
): Promise<UnpausedTransaction> {
  return ctx.storage.transaction([], async (tx) => {
    const current = await tx.get('transactions', record.id)
    if (current && current.status !== 'queued') return current as UnpausedTransaction
    const now = ctx.now().toISOString()
    const next: SubmittedUserOperation = { ...record, status: 'submitted', submittedAt: now, updatedAt: now }
    await tx.put('transactions', next)
    appendEvent(ctx, tx, next.tenantId, 'tx.submitted', txPayload(next))
    return next
  })
}

/**
 * submitted → confirmed (`hash`: the transaction that included the op) or, when the wallet's calls
 * reverted inside it, failed (`transaction_failed`, the revert reason in the message).
 */
export async function markUserOperationMined(
  ctx: AgentWalletContext,
  record: SubmittedUserOperation,
  receipt: UserOperationReceipt,
): Promise<TransactionRecord> {
  return ctx.storage.transaction([], async (tx) => {
    const current = await tx.get('transactions', record.id)
    if (current?.status !== 'submitted') return current ?? record
    if (!receipt.success) {
      const reason = receipt.reason ? `: ${receipt.reason}` : ''
      const error = new BaseError('transaction_failed', `The user operation's calls reverted${reason}`, {
        details: { userOpHash: receipt.userOpHash, hash: receipt.receipt.transactionHash },
      })
      return writeFailed(ctx, tx, { ...record, ...current } as SubmittedUserOperation, error)
    }
    const now = ctx.now().toISOString()
    const { submittedAt, ...submitted } = current as SubmittedUserOperation
    const next: MinedUserOperation = {
      ...submitted,
      status: 'confirmed',
      hash: receipt.receipt.transactionHash,
      blockNumber: Number(receipt.receipt.blockNumber),
      blockHash: receipt.receipt.blockHash,
      gasUsed: receipt.actualGasUsed.toString(),
      gasCost: receipt.actualGasCost.toString(),
      finality: 'pending',
      receiptEffects: toStoredEffects(actualEffectsOf(ctx, submitted, receipt.logs)),
      submittedAt,
      confirmedAt: now,
      updatedAt: now,
    }
    await tx.put('transactions', next)
    appendEvent(ctx, tx, next.tenantId, 'tx.confirmed', { ...txPayload(next), blockNumber: next.blockNumber })
    appendEffectsDiffered(ctx, tx, next)
    return next
  })
}

/**
 * confirmed → submitted: the block that held the op's carrier left the canonical chain (a reorg), as
 * `writeReorged` for a tx. The block's fields go, the signed op stays (the carrier is broadcast again
 * by the relayer's tracker; any other inclusion of it takes the same nonce), and `tx.reorged` names
 * the block it was in. Spend limits keep counting it.
 * @example const back = await writeUserOperationReorged(ctx, tx, record)
 */
export async function writeUserOperationReorged(
  ctx: AgentWalletContext,
  tx: StorageTx,
  record: MinedUserOperation,
): Promise<SubmittedUserOperation> {
  const {
    blockNumber,
    blockHash,
    hash: _hash,
    gasUsed: _gasUsed,
    gasCost: _gasCost,
    finality: _finality,
    finalizedAt: _finalizedAt,
    receiptEffects: _receiptEffects,
    confirmedAt: _confirmedAt,
    status: _status,
    ...rest
  } = record
  const now = ctx.now().toISOString()
  const next: SubmittedUserOperation = { ...rest, status: 'submitted', submittedAt: now, updatedAt: now }
  await writeLeftBlock(ctx, tx, next, { blockNumber, blockHash })
  return next
}
