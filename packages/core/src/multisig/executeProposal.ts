import { type Address, concat, encodeFunctionData, parseEventLogs } from 'viem'
import { safeAbi } from '../chain/safeAbi.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import type { Principal } from '../principals/types.js'
import { type SubmitResult, submitIntent } from '../transactions/submitIntent.js'
import type { WalletRecord } from '../wallets/types.js'
import type { SafeProposalRecord, SafeSignature } from './multisigTypes.js'
import { isOwner, type SafeState } from './readSafe.js'
import { safeTxPayment } from './safeTxPayment.js'

/**
 * At threshold, sends `execTransaction` through the money path from `executor` (kind 'multisig',
 * judged by the executor's policy as what the Safe really pays: see `safeTxPayment`) with the
 * current owners' signatures sorted by owner address, and marks the proposal `executing`. Below
 * threshold, or before the Safe reaches the proposal's nonce, it sends nothing. A refusal (policy,
 * funds, a revert in estimation) stays on the proposal as `lastError` and is rethrown. The caller
 * holds the proposal's lock.
 */
export async function executeIfReady(
  ctx: AgentWalletContext,
  principal: Principal,
  chain: ChainHandle,
  proposal: SafeProposalRecord & { status: 'pending' },
  state: SafeState,
  executor: WalletRecord,
): Promise<{ proposal: SafeProposalRecord; submitted?: SubmitResult | undefined }> {
  const nonce = BigInt(proposal.tx.nonce)
  if (nonce < state.nonce) {
    const failed: SafeProposalRecord = {
      ...proposal,
      status: 'failed',
      reason: `The Safe already used nonce ${proposal.tx.nonce} for another transaction`,
      updatedAt: ctx.now().toISOString(),
    }
    await ctx.storage.transaction([], (tx) => tx.put('multisig_proposals', failed))
    return { proposal: failed }
  }
  const valid = ownerSignatures(proposal.signatures, state.owners)
  if (valid.length < state.threshold || nonce > state.nonce) return { proposal }
  const signatures = concat(valid.slice(0, state.threshold).map((entry) => entry.signature))
  const t = proposal.tx
  const data = encodeFunctionData({
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [
      t.to,
      BigInt(t.value),
      t.data,
      t.operation,
      BigInt(t.safeTxGas),
      BigInt(t.baseGas),
      BigInt(t.gasPrice),
      t.gasToken,
      t.refundReceiver,
      signatures,
    ],
  })
  let submitted: SubmitResult
  try {
    submitted = await submitIntent(ctx, principal, executor, {
      kind: 'multisig',
      chain: chain.name,
      ...(await safeTxPayment(chain, proposal.safeAddress, t)),
      call: { to: proposal.safeAddress, value: 0n, data },
      meta: { safeAddress: proposal.safeAddress, safeTxHash: proposal.safeTxHash, proposalId: proposal.id },
    })
  } catch (error) {
    const lastError =
      error instanceof BaseError
        ? { code: error.code, message: error.shortMessage }
        : { code: 'internal', message: 'Execution failed' }
    await ctx.storage.transaction([], (tx) =>
      tx.put('multisig_proposals', { ...proposal, lastError, updatedAt: ctx.now().toISOString() }),
    )
    throw error
  }
  const executing: SafeProposalRecord = {
    ...proposal,
    status: 'executing',
    executor: executor.address,
    transactionId: submitted.transaction.id,
    updatedAt: ctx.now().toISOString(),
  }
  await ctx.storage.transaction([], (tx) => tx.put('multisig_proposals', executing))
  return { proposal: executing, submitted }
}

/**
 * Moves an `executing` proposal on from its transaction: confirmed with ExecutionSuccess for this
 * safeTxHash → `executed`; reverted, or ExecutionFailure → `failed` (both emit `multisig.executed`);
 * rejected/expired/blocked approval → back to `pending`. The caller holds the proposal's lock.
 */
export async function settleProposal(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  proposal: SafeProposalRecord,
): Promise<SafeProposalRecord> {
  if (proposal.status !== 'executing') return proposal
  const record = await ctx.storage.get('transactions', proposal.transactionId)
  if (!record) return proposal
  const now = ctx.now().toISOString()
  const { transactionId: _transactionId, executor: _executor, status: _status, ...base } = proposal
  let next: SafeProposalRecord
  if (record.status === 'confirmed' && record.hash) {
    const receipt = await chain.client.getTransactionReceipt({ hash: record.hash })
    const events = parseEventLogs({ abi: safeAbi, logs: receipt.logs }).filter(
      (log) =>
        log.address.toLowerCase() === proposal.safeAddress.toLowerCase() &&
        (log.eventName === 'ExecutionSuccess' || log.eventName === 'ExecutionFailure') &&
        log.args.txHash.toLowerCase() === proposal.safeTxHash.toLowerCase(),
    )
    const success = events.some((log) => log.eventName === 'ExecutionSuccess')
    next = success
      ? { ...proposal, status: 'executed', executionHash: record.hash, executedAt: now, updatedAt: now }
      : {
          ...proposal,
          status: 'failed',
          executionHash: record.hash,
          reason:
            events.length > 0
              ? 'The Safe reported ExecutionFailure'
              : 'The receipt carries no ExecutionSuccess for this safeTxHash',
          updatedAt: now,
        }
  } else if (record.status === 'failed') {
    next = {
      ...proposal,
      status: 'failed',
      executionHash: record.hash,
      reason: record.error?.message ?? 'The execTransaction reverted',
      updatedAt: now,
    }
  } else if (record.status === 'rejected' || record.status === 'expired' || record.status === 'blocked') {
    next = {
      ...base,
      status: 'pending',
      lastError: { code: record.status, message: `The execution was ${record.status}` },
      updatedAt: now,
    }
  } else {
    return proposal
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('multisig_proposals', next)
    if (next.status === 'executed' || next.status === 'failed') {
      appendEvent(ctx, tx, proposal.tenantId, 'multisig.executed', {
        proposalId: proposal.id,
        safeAddress: proposal.safeAddress,
        chain: proposal.chain,
        safeTxHash: proposal.safeTxHash,
        transactionId: proposal.transactionId,
        hash: record.hash,
        status: next.status,
        success: next.status === 'executed',
      })
    }
  })
  return next
}

/** Signatures of current owners, one per owner, sorted by owner address ascending (Safe's order). */
export function ownerSignatures(
  signatures: readonly SafeSignature[],
  owners: readonly Address[],
): SafeSignature[] {
  const byOwner = new Map<string, SafeSignature>()
  for (const entry of signatures)
    if (isOwner(owners, entry.owner)) byOwner.set(entry.owner.toLowerCase(), entry)
  return [...byOwner.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry)
}
