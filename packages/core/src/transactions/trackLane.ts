import { type Hex, TransactionNotFoundError, type TransactionReceipt } from 'viem'
import { isRefusal } from '../chain/isRefusal.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import type { TrackPass } from './carrier.js'
import { chainVerdict } from './chainVerdict.js'
import { type LaneRetries, retrySkipped } from './laneRetries.js'
import { markRebroadcast, minedRecord, writeMined } from './laneTransitions.js'
import { prepareGas, tokenSpendOf } from './prepareGas.js'
import { recheckFailed } from './recheckFailed.js'
import { refreshCall } from './refreshCall.js'
import { adoptMined, hashesOf, receiptOf, replacementDue, replaceStuck } from './replaceStuck.js'
import { broadcastSigned, failSigned, signAndBroadcast } from './signAndBroadcast.js'
import { markFailed, writeFailed } from './transitions.js'
import {
  isSigned,
  isSubmittedTransaction,
  type SignedQueuedTransaction,
  type SubmittedTransaction,
  type TransactionRecord,
} from './types.js'

/**
 * The tracker's pass over the lane's records (a wallet's own signed txs): receipts for submitted txs
 * (→ confirmed / failed), and for a stale one its nonce (taken by another tx → failed), replacements
 * of submitted txs stuck below the chain's current fees, signed txs reported failed that the chain
 * shows mined after all (`recheckFailed`), and the queued txs that a crash or a transport failure
 * left behind: a signed one is broadcast again exactly as signed; an unsigned one (accepted, crash
 * before signing) is signed now. Only stale ones, unless the pass is the start-up reconciliation.
 * First, what the last pass could not do for lack of an answer (`retries`: a broadcast, a wallet's
 * next nonce after a reorg).
 * @example await trackLane(ctx, pass)
 */
export async function trackLane(
  ctx: AgentWalletContext,
  pass: TrackPass,
  retries: LaneRetries,
): Promise<void> {
  try {
    await trackOpen(ctx, pass, retries)
  } finally {
    retries.pass++
  }
}

async function trackOpen(ctx: AgentWalletContext, pass: TrackPass, retries: LaneRetries): Promise<void> {
  await retrySkipped(ctx, retries, pass.chains)
  const submitted = pass.submitted.filter(isSubmittedTransaction)
  const receipts = await Promise.all(
    submitted.map(async (record) => ({
      record,
      receipt: await receiptOf(ctx.chains.get(record.chain), record),
    })),
  )
  await saveReceipts(
    ctx,
    receipts.filter((found): found is Found => found.receipt !== undefined),
  )
  await Promise.all([
    ...receipts
      .filter((found) => found.receipt === undefined)
      .map(({ record }) => settle(ctx, record, Date.parse(record.submittedAt) <= pass.staleBefore, retries)),
    ...pass.queued
      .filter((record) => Date.parse(record.updatedAt) <= pass.staleBefore)
      .map((record) => resume(ctx, record)),
    recheckFailed(ctx, { where: pass.where, legacy: pass.all }),
  ])
}

type Found = { record: SubmittedTransaction; receipt: TransactionReceipt }

/**
 * Every tx a receipt was found for, confirmed or failed in one commit (one fsync per pass, not per
 * tx), holding the locks of their wallets as a single settle would. A record that moved on meanwhile
 * is left as it is.
 */
async function saveReceipts(ctx: AgentWalletContext, found: Found[]): Promise<void> {
  if (found.length === 0) return
  await ctx.storage.transaction(
    found.map(({ record }) => walletLockKey(record.from)),
    async (tx) => {
      for (const { record: candidate, receipt } of found) {
        const record = await tx.get('transactions', candidate.id)
        if (!record || !isSubmittedTransaction(record)) continue
        await writeMined(ctx, tx, minedRecord(ctx, adoptMined(record, receipt.transactionHash), receipt))
      }
    },
  )
}

/**
 * A submitted tx without a receipt (of any of its signatures): a stale one the node no longer knows
 * is broadcast again; one stuck below the chain's current fees is replaced.
 */
async function settle(
  ctx: AgentWalletContext,
  candidate: SubmittedTransaction,
  stale: boolean,
  retries: LaneRetries,
): Promise<void> {
  const chain = ctx.chains.get(candidate.chain)
  if (stale) {
    // Mined since the pass began, or its nonce taken by another tx: the chain has the answer.
    const verdict = await chainVerdict(chain, candidate)
    if (verdict.kind === 'mined') return saveReceipts(ctx, [{ record: candidate, receipt: verdict.receipt }])
    if (verdict.kind === 'taken') return failTaken(ctx, candidate)
  }
  // The newest signature unknown to the node (evicted, or a crash between commit and broadcast).
  const unseen = stale && (await isUnknown(chain, candidate.hash))
  if (!unseen && !replacementDue(ctx, candidate)) return
  await withLock(ctx.storage, [walletLockKey(candidate.from)], async () => {
    const record = await ctx.storage.get('transactions', candidate.id)
    if (!record || !isSubmittedTransaction(record)) return
    if (unseen) await rebroadcastDropped(ctx, chain, record)
    else if (record.submittedAt === candidate.submittedAt) await replaceStuck(ctx, chain, record, retries)
  })
}

/** True when the node answers that it has never heard of the tx. */
function isUnknown(chain: ChainHandle, hash: Hex): Promise<boolean> {
  return chain.client.getTransaction({ hash }).then(
    () => false,
    (error: unknown) => error instanceof TransactionNotFoundError,
  )
}

/** True when the node has never heard of any signature of the tx (evicted from its mempool). */
async function isDropped(chain: ChainHandle, record: SubmittedTransaction): Promise<boolean> {
  for (const hash of hashesOf(record)) if (!(await isUnknown(chain, hash))) return false
  return true
}

/**
 * Sends the newest signature again, byte for byte. If the node now refuses it and knows no other
 * signature of the tx (its nonce was used by another tx from outside, or the wallet can no longer
 * pay), it can never be mined: failed. While an older signature is pending, it waits.
 */
async function rebroadcastDropped(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: SubmittedTransaction,
): Promise<void> {
  try {
    await chain.client.sendRawTransaction({ serializedTransaction: record.rawTx })
    await markRebroadcast(ctx, record)
  } catch (error) {
    // Only a definite refusal of a tx the node knows under no signature: a lost answer says nothing.
    if (!isRefusal(error) || !(await isDropped(chain, record))) return
    await failSigned(ctx, chain, record, toChainError(error, chain.name))
  }
}

/**
 * Fails a signed tx whose nonce the chain shows used by another tx (none of its signatures mined):
 * it can never be mined, and there is no hole to fill. Takes the wallet lock.
 */
async function failTaken(
  ctx: AgentWalletContext,
  candidate: SignedQueuedTransaction | SubmittedTransaction,
): Promise<void> {
  await withLock(ctx.storage, [walletLockKey(candidate.from)], async () => {
    const record = await ctx.storage.get('transactions', candidate.id)
    if (record?.status !== candidate.status || record.hash !== candidate.hash) return
    if ((record.status !== 'queued' && record.status !== 'submitted') || record.rawTx === undefined) return
    await failNonceTaken(ctx, record)
  })
}

/** Writes → failed for a tx whose nonce another tx was mined at. The caller holds the wallet lock. */
async function failNonceTaken(
  ctx: AgentWalletContext,
  record: SignedQueuedTransaction | SubmittedTransaction,
) {
  const error = new BaseError('transaction_failed', 'Another transaction was mined at its nonce', {
    details: { chain: record.chain, nonce: record.nonce },
  })
  await ctx.storage.transaction([], (tx) => writeFailed(ctx, tx, record, error, { nonceSettled: true }))
}

async function resume(ctx: AgentWalletContext, candidate: TransactionRecord): Promise<void> {
  const chain = ctx.chains.get(candidate.chain)
  await withLock(ctx.storage, [walletLockKey(candidate.from)], async () => {
    const record = await ctx.storage.get('transactions', candidate.id)
    if (record?.status !== 'queued') return
    if (isSigned(record)) {
      // Its broadcast's answer may have been lost: the chain may have it mined already.
      const verdict = await chainVerdict(chain, record)
      if (verdict.kind === 'mined') {
        const submitted: SubmittedTransaction = {
          ...record,
          status: 'submitted',
          submittedAt: record.updatedAt,
        }
        const mined = minedRecord(ctx, submitted, verdict.receipt)
        await ctx.storage.transaction([], (tx) => writeMined(ctx, tx, mined))
      } else if (verdict.kind === 'taken') await failNonceTaken(ctx, record)
      else await broadcastSigned(ctx, chain, record)
      return
    }
    try {
      // Accepted (or approved) before a crash: a signature its call carries may have lapsed since.
      const fresh = await refreshCall(ctx, chain, record)
      const gas = await prepareGas(chain, fresh.from, fresh.call, tokenSpendOf(fresh))
      await signAndBroadcast(ctx, chain, fresh, gas)
    } catch (error) {
      // A definitive answer (e.g. the wallet can no longer pay) ends the intent; a transport error waits.
      if (isAgentWalletError(error) && error.code !== 'chain_unavailable')
        await markFailed(ctx, record, error)
      else if (!isAgentWalletError(error)) throw error
    }
  })
}
