import type { Hex } from 'viem'
import type { PendingApproval } from '../approvals/types.js'
import type { AgentWalletContext } from '../context.js'
import type { BaseError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import { effectsHeadline } from '../schemas/effectsHeadline.js'
import type { StorageTx } from '../storage/types.js'
import type { MinedRecord } from './laneTransitions.js'
import type {
  FailedTransaction,
  MinedUserOperation,
  QueuedTransaction,
  SubmittedSolanaTransaction,
  SubmittedTransaction,
  SubmittedUserOperation,
  TransactionRecord,
} from './types.js'

// The lifecycle every carrier shares: an intent's events, queued → failed before a block, a mined
// record's block checked, and a record back to `submitted` after a reorg. Each carrier's own steps
// live with it: the lane's in laneTransitions.ts (submitted, mined, replaced, stuck, recovered), a
// user operation's in smartWallets/userOperationTransitions.ts, an x402 payment's in
// payments/paymentTransitions.ts; an approver's in approvals/transitions.ts. One verb per kind of
// step: `mark…` commits the record it moves with its event itself; `write…` does the same inside the
// caller's commit (`tx`); `append…` adds an event only.

/** A transaction that can still fail: accepted and not yet mined. */
export type ActiveTransaction =
  | QueuedTransaction
  | SubmittedTransaction
  | SubmittedUserOperation
  | SubmittedSolanaTransaction

/**
 * `policy.hitl`, in `tx`: an intent waits for a human, with what the approver will be shown.
 * @example if (approval) appendHitl(ctx, tx, saved, approval)
 */
export function appendHitl(
  ctx: AgentWalletContext,
  tx: StorageTx,
  record: TransactionRecord,
  approval: Pick<PendingApproval, 'id' | 'expiresAt' | 'ruleId' | 'reason' | 'effects'>,
): void {
  appendEvent(ctx, tx, record.tenantId, 'policy.hitl', {
    ...txPayload(record),
    approvalId: approval.id,
    expiresAt: approval.expiresAt,
    ruleId: approval.ruleId,
    reason: approval.reason,
    ...(approval.effects ? { effects: approval.effects, headline: effectsHeadline(approval.effects) } : {}),
  })
}

/** The event payload every tx event carries. */
export function txPayload(record: TransactionRecord) {
  return {
    transactionId: record.id,
    walletId: record.walletId,
    chain: record.chain,
    from: record.from,
    to: record.to,
    hash: record.hash,
    status: record.status,
    kind: record.kind,
    asset: record.asset.symbol,
    amount: record.amount,
  }
}

/**
 * queued → failed before reaching a block. With `releaseNonce`, the nonce goes back to the pool:
 * only safe while holding the wallet lock and when no later nonce was allocated.
 */
export async function markFailed(
  ctx: AgentWalletContext,
  record: ActiveTransaction,
  error: BaseError,
  options: { releaseNonce?: { nonceId: string } | undefined } = {},
): Promise<FailedTransaction> {
  return ctx.storage.transaction([], async (tx) => {
    if (options.releaseNonce && record.nonce !== undefined)
      await releaseNonce(tx, options.releaseNonce.nonceId, record.nonce)
    return writeFailed(ctx, tx, record, error)
  })
}

/**
 * Writes queued (or submitted) → failed, with its `tx.failed` event, in `tx`: the record as saved.
 * `nonceSettled`: the chain already shows another tx mined at its nonce (default: not yet).
 * @example const failed = await writeFailed(ctx, tx, record, error)
 */
export async function writeFailed(
  ctx: AgentWalletContext,
  tx: StorageTx,
  record: ActiveTransaction,
  error: BaseError,
  options: { nonceSettled?: boolean | undefined } = {},
): Promise<FailedTransaction> {
  const next: FailedTransaction = {
    ...record,
    status: 'failed',
    error: { code: error.code, message: error.shortMessage, ...reasonOf(error) },
    // A signed tx is failed only on the node's definite refusal, yet the chain has the last word: the
    // tracker watches its nonce until another tx is mined at it (`recheckFailed`).
    ...(record.rawTx !== undefined ? { nonceSettled: options.nonceSettled ?? false } : {}),
    updatedAt: ctx.now().toISOString(),
  }
  await tx.put('transactions', next)
  appendEvent(ctx, tx, next.tenantId, 'tx.failed', { ...txPayload(next), reason: error.shortMessage })
  return next
}

/** The node's reason a chain error carries (`toChainError`'s `details.reason`), to keep on the record. */
function reasonOf(error: BaseError): { reason?: string } {
  const reason = error.details?.reason
  return typeof reason === 'string' && reason !== '' ? { reason } : {}
}

async function releaseNonce(tx: StorageTx, nonceId: string, nonce: number): Promise<void> {
  const stored = await tx.get('nonces', nonceId)
  if (stored?.next === nonce + 1) await tx.put('nonces', { id: nonceId, next: nonce })
}

/**
 * Writes a record moved back to `submitted` by a reorg, with `tx.reorged` naming the block it left.
 * @example await writeLeftBlock(ctx, tx, next, { blockNumber, blockHash })
 */
export async function writeLeftBlock(
  ctx: AgentWalletContext,
  tx: StorageTx,
  next: TransactionRecord,
  { blockNumber, blockHash }: { blockNumber: number; blockHash?: Hex | undefined },
): Promise<void> {
  await tx.put('transactions', next)
  appendEvent(ctx, tx, next.tenantId, 'tx.reorged', {
    ...txPayload(next),
    blockNumber,
    ...(blockHash ? { blockHash } : {}),
  })
}

/**
 * A mined tx's block, checked against the canonical chain: `finalized` once deep enough, else still
 * `pending` with the hash of its block (a record saved before hashes were kept gets one here).
 * @example await writeBlockChecked(tx, record, { blockHash, finalizedAt: now })
 */
export async function writeBlockChecked(
  tx: StorageTx,
  record: MinedRecord | MinedUserOperation,
  checked: { blockHash: Hex; finalizedAt: string | undefined },
): Promise<void> {
  await tx.put('transactions', {
    ...record,
    blockHash: checked.blockHash,
    ...(checked.finalizedAt
      ? { finality: 'finalized', finalizedAt: checked.finalizedAt }
      : { finality: 'pending' }),
  })
}
