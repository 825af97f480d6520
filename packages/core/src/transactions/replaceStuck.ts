import { type Hex, keccak256, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem'
import { isRefusal } from '../chain/isRefusal.js'
import { isTransportError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { maxOf } from '../utils/amounts.js'
import { type LaneRetries, oweBroadcast, reportSkipped } from './laneRetries.js'
import { markReplaced, markStuck } from './laneTransitions.js'
import { refreshCall } from './refreshCall.js'
import { transactionRequest } from './transactionRequest.js'
import type { SignedVersion, SubmittedTransaction, TxStuck } from './types.js'

/** Every hash this intent was signed under, the newest first. */
export function hashesOf(record: SubmittedTransaction): Hex[] {
  return [record.hash, ...(record.replaced ?? []).map((version) => version.hash).reverse()]
}

/**
 * The receipt of whichever signature of the intent was mined (the newest first), if any. A node
 * that does not answer counts as no receipt yet.
 */
export async function receiptOf(
  chain: ChainHandle,
  record: SubmittedTransaction,
): Promise<TransactionReceipt | undefined> {
  for (const hash of hashesOf(record)) {
    const receipt = await chain.client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError || isTransportError(error)) return undefined
      throw error
    })
    if (receipt) return receipt
  }
  return undefined
}

/** The record as mined under `hash`: an earlier signature that won becomes the current one again. */
export function adoptMined(record: SubmittedTransaction, hash: Hex): SubmittedTransaction {
  const winner = record.replaced?.find((version) => version.hash === hash)
  if (!winner) return record
  const current: SignedVersion = {
    hash: record.hash,
    rawTx: record.rawTx,
    gas: record.gas,
    replacedAt: record.updatedAt,
    call: record.call,
    ...(record.cancels ? { cancels: true } : {}),
  }
  // What the winner carried (its call, whether it cancels) is what happened on chain.
  const { cancels: _cancels, stuck: _stuck, ...signedAs } = record
  return {
    ...signedAs,
    hash: winner.hash,
    rawTx: winner.rawTx,
    gas: winner.gas,
    call: winner.call ?? record.call,
    ...(winner.cancels ? { cancels: true } : {}),
    replaced: [...(record.replaced ?? []).filter((version) => version !== winner), current],
  }
}

/** True when the tx is due for a look: unmined this long after its last broadcast. */
export function replacementDue(ctx: AgentWalletContext, record: SubmittedTransaction): boolean {
  const after = ctx.options.replaceStuckAfterMs
  if (after === false) return false
  return ctx.now().getTime() - Date.parse(record.submittedAt) >= after
}

/** Raises a fee by at least 12.5% (nodes want 10% to replace), rounding up. */
const bumped = (fee: bigint) => (fee * 1125n + 999n) / 1000n

/**
 * Replaces a stuck submitted tx: the same nonce, call and gas limit (a lapsed deadline or signature
 * in the call made again, see `refreshCall`), signed again with fees at least 12.5% higher and at
 * least what the chain asks now, committed (with the old signature kept, since it may still be
 * mined) before it is broadcast. Nothing happens while the tx is priced at or above
 * the chain's current fees (it is only slow), when the raise would pass `maxFeeBumpMultiplier` times
 * the first signature's max fee, or when the wallet could not pay the higher fee. A fee or balance
 * read that fails skips the replacement for this pass, and a broadcast the node did not answer is
 * owed to the next (`retries`); each is reported (`reportSkipped`). The caller holds the wallet lock
 * and has re-read `record` under it.
 */
export async function replaceStuck(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: SubmittedTransaction,
  retries: LaneRetries,
): Promise<SubmittedTransaction> {
  let market: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  try {
    market = await chain.client.estimateFeesPerGas()
  } catch (error) {
    // Still due: the next pass reads the fees again.
    reportSkipped(ctx, 'replacement_fees', record, error)
    return record
  }
  const oldMax = BigInt(record.gas.maxFeePerGas)
  const oldTip = BigInt(record.gas.maxPriorityFeePerGas)
  if (oldMax >= market.maxFeePerGas && oldTip >= market.maxPriorityFeePerGas) return record
  const tip = maxOf(bumped(oldTip), market.maxPriorityFeePerGas)
  const maxFee = maxOf(bumped(oldMax), market.maxFeePerGas, tip)
  const cap = feeCapOf(ctx, record)
  if (maxFee > cap) return stuckAs(ctx, record, 'fee_cap_reached', maxFee, cap)
  const limit = BigInt(record.gas.limit)
  let balance: bigint
  try {
    balance = await chain.client.getBalance({ address: record.from })
  } catch (error) {
    reportSkipped(ctx, 'replacement_balance', record, error)
    return record
  }
  if (balance < BigInt(record.call.value) + limit * maxFee)
    return stuckAs(ctx, record, 'insufficient_funds', maxFee, cap)

  // Bytes with a short life (a swap's deadline, a setAgentWallet signature) may have lapsed while it
  // was stuck: made again for the same intent, as for a late approval. A cancel has none.
  const { call } = record.cancels ? record : await refreshCall(ctx, chain, record)
  const signer = await ctx.vault.getSigner(record.from)
  const gas = {
    limit: record.gas.limit,
    maxFeePerGas: maxFee.toString(),
    maxPriorityFeePerGas: tip.toString(),
  }
  const rawTx = await signer.signTransaction(
    transactionRequest(chain, call, {
      nonce: record.nonce,
      gas: limit,
      maxFeePerGas: maxFee,
      maxPriorityFeePerGas: tip,
    }),
  )
  const next = await markReplaced(ctx, record, {
    call,
    gas,
    rawTx,
    hash: keccak256(rawTx),
    ...(record.cancels ? { cancels: true } : {}),
  })
  try {
    await chain.client.sendRawTransaction({ serializedTransaction: rawTx })
  } catch (error) {
    // A refusal leaves the older signature pending, and a later pass looks again; no answer (a rate
    // limit, a node away) is owed: the next pass sends the new signature first.
    reportSkipped(ctx, 'replacement_broadcast', next, error)
    if (!isRefusal(error)) oweBroadcast(retries, next, 'replacement_broadcast')
  }
  return next
}

/**
 * The most any signature of the tx may pay per gas: `maxFeeBumpMultiplier` times its first max fee.
 * @example if (maxFee > feeCapOf(ctx, record)) return record
 */
export function feeCapOf(ctx: AgentWalletContext, record: SubmittedTransaction): bigint {
  const first = BigInt(record.replaced?.[0]?.gas.maxFeePerGas ?? record.gas.maxFeePerGas)
  return (first * BigInt(Math.round(ctx.options.maxFeeBumpMultiplier * 1000))) / 1000n
}

/** The tx left as it is, marked stuck once (with `tx.stuck`) so the API and operators see why. */
async function stuckAs(
  ctx: AgentWalletContext,
  record: SubmittedTransaction,
  reason: TxStuck['reason'],
  needed: bigint,
  cap: bigint,
): Promise<SubmittedTransaction> {
  if (record.stuck?.reason === reason) return record
  return markStuck(ctx, record, {
    since: ctx.now().toISOString(),
    reason,
    maxFeePerGas: record.gas.maxFeePerGas,
    neededMaxFeePerGas: needed.toString(),
    capMaxFeePerGas: cap.toString(),
  })
}
