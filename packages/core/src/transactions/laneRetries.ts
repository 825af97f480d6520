import type { Address, Hex } from 'viem'
import { isRefusal } from '../chain/isRefusal.js'
import { nodeReason, toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import type { SkippedStep } from '../metrics/skippedSteps.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { nonceIdOf } from './allocateNonce.js'
import { markRebroadcast } from './laneTransitions.js'
import { nextNonceFromNode } from './nextNonceFromNode.js'
import { isSubmittedTransaction } from './types.js'

/**
 * What a tracker pass could not do for the lane because the node failed the call (no answer, a rate
 * limit), kept by the lane carrier (per context) for its next pass to do first: a broadcast of a tx
 * already committed (a replacement, a reorged tx) by record id, and a wallet's next nonce to
 * re-derive from the node after a reorg, by nonce id.
 */
export type LaneRetries = {
  broadcasts: Map<string, OwedBroadcast>
  nonces: Map<string, OwedNonce>
  /** The lane's passes so far: what a pass owes is done by the next one, not again by itself. */
  pass: number
}

/** A wallet whose next nonce is to be re-derived from the node. */
export type OwedNonce = { chain: string; walletId: string; from: Address; pass: number }

/** A committed signature the node has not been given: whose, and which step skipped it. */
export type OwedBroadcast = {
  chain: string
  from: Address
  hash: Hex
  step: Extract<SkippedStep, 'replacement_broadcast' | 'reorg_rebroadcast'>
  pass: number
}

/** An empty set of retries, one per lane carrier. */
export const laneRetries = (): LaneRetries => ({ broadcasts: new Map(), nonces: new Map(), pass: 0 })

/**
 * A tracker step a failed chain call skipped: counted on `/metrics`
 * (`agentwallet_tracker_steps_skipped_total`) and handed to `onBackgroundError` with its step,
 * chain, transaction and the node's reason, so an operator sees it in the log.
 * @example reportSkipped(ctx, 'replacement_fees', record, error)
 */
export function reportSkipped(
  ctx: AgentWalletContext,
  step: SkippedStep,
  subject: { chain: string; id?: string | undefined; walletId?: string | undefined },
  error: unknown,
): void {
  ctx.skipped.count(step, subject.chain)
  const { code } = toChainError(error, subject.chain, { read: !isRefusal(error) })
  ctx.options.onBackgroundError?.(
    new BaseError(code, `The tracker skipped a step (${step}); a later pass does it again`, {
      details: {
        step,
        chain: subject.chain,
        transactionId: subject.id,
        walletId: subject.walletId,
        reason: nodeReason(error),
      },
      cause: error,
    }),
  )
}

/**
 * The lane's retries, first thing in a pass over `chains` (all when undefined), of what the passes
 * before this one owe (not what this pass's reorg check just skipped): each broadcast
 * again while its record is still submitted under the same hash, and each wallet's next nonce
 * re-derived, under the wallet's lock. Done ones are dropped; a refused broadcast is left to the
 * pass's own look at unseen txs; one that fails again stays, and is counted again.
 * @example await retrySkipped(ctx, retries, pass.chains)
 */
export async function retrySkipped(
  ctx: AgentWalletContext,
  retries: LaneRetries,
  chains: readonly string[] | undefined,
): Promise<void> {
  const ours = (chain: string) => chains === undefined || chains.includes(chain)
  for (const [id, owed] of retries.broadcasts) {
    if (!ours(owed.chain) || owed.pass >= retries.pass) continue
    const chain = ctx.chains.get(owed.chain)
    await withLock(ctx.storage, [walletLockKey(owed.from)], async () => {
      const record = await ctx.storage.get('transactions', id)
      if (!record || !isSubmittedTransaction(record) || record.hash !== owed.hash) {
        retries.broadcasts.delete(id)
        return
      }
      try {
        await chain.client.sendRawTransaction({ serializedTransaction: record.rawTx })
        retries.broadcasts.delete(id)
        await markRebroadcast(ctx, record)
      } catch (error) {
        if (isRefusal(error)) retries.broadcasts.delete(id)
        reportSkipped(ctx, owed.step, record, error)
      }
    })
  }
  for (const [nonceId, wallet] of retries.nonces) {
    if (!ours(wallet.chain) || wallet.pass >= retries.pass) continue
    const chain = ctx.chains.get(wallet.chain)
    await withLock(ctx.storage, [walletLockKey(wallet.from)], async () => {
      try {
        const next = await nextNonceFromNode(ctx, chain, wallet)
        await ctx.storage.transaction([], (tx) => tx.put('nonces', { id: nonceId, next }))
        retries.nonces.delete(nonceId)
      } catch (error) {
        reportSkipped(ctx, 'reorg_next_nonce', wallet, error)
      }
    })
  }
}

/**
 * Asks the next pass to broadcast `record`'s committed signature, which the node did not take.
 * @example oweBroadcast(retries, next, 'replacement_broadcast')
 */
export function oweBroadcast(
  retries: LaneRetries,
  record: { id: string; chain: string; from: Address; hash: Hex },
  step: OwedBroadcast['step'],
): void {
  retries.broadcasts.set(record.id, {
    chain: record.chain,
    from: record.from,
    hash: record.hash,
    step,
    pass: retries.pass,
  })
}

/**
 * Asks the next pass to re-derive the wallet's next nonce from the node.
 * @example oweNonce(retries, chain, record)
 */
export function oweNonce(
  retries: LaneRetries,
  chain: { chainId: number; name: string },
  wallet: { walletId: string; from: Address },
): void {
  retries.nonces.set(nonceIdOf(chain.chainId, wallet.from), {
    chain: chain.name,
    walletId: wallet.walletId,
    from: wallet.from,
    pass: retries.pass,
  })
}
