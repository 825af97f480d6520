import { isRefusal } from '../chain/isRefusal.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { nonceIdOf } from './allocateNonce.js'
import type { Watched } from './carrier.js'
import { type LaneRetries, oweBroadcast, oweNonce, reportSkipped } from './laneRetries.js'
import { type MinedRecord, writeReorged } from './laneTransitions.js'
import { nextNonceFromNode } from './nextNonceFromNode.js'
import { isSigned } from './types.js'
import { stillAsWatched } from './watchMined.js'

/**
 * The lane's answer to a reorg: each wallet's reorged txs, under its lock, lowest nonce first (a
 * node that refuses nonce gaps takes them in order), each back to `submitted` with `tx.reorged`,
 * then its bytes broadcast again. A refusal is left to the tracker (a submitted tx the node does not
 * know is broadcast again, and failed if refused for good); no answer is owed to its next pass
 * (`retries`). Then the wallet's next nonce follows the node, or, if the node cannot be asked, is
 * owed too. Each skip is reported (`reportSkipped`).
 * @example await sendReorgedAgain(ctx, chain, reorged)
 */
export async function sendReorgedAgain(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  records: readonly Watched[],
  retries: LaneRetries,
): Promise<void> {
  const byWallet = new Map<string, MinedRecord[]>()
  for (const record of records)
    if (isSigned(record)) byWallet.set(record.walletId, [...(byWallet.get(record.walletId) ?? []), record])
  await Promise.all([...byWallet.values()].map((mined) => sendWalletAgain(ctx, chain, mined, retries)))
}

async function sendWalletAgain(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  mined: MinedRecord[],
  retries: LaneRetries,
): Promise<void> {
  const [first] = mined
  if (!first) return
  await withLock(ctx.storage, [walletLockKey(first.from)], async () => {
    for (const record of [...mined].sort((a, b) => a.nonce - b.nonce)) {
      const back = await ctx.storage.transaction([], async (tx) =>
        (await stillAsWatched(tx, record)) ? writeReorged(ctx, tx, record) : undefined,
      )
      if (!back) continue
      try {
        await chain.client.sendRawTransaction({ serializedTransaction: back.rawTx })
      } catch (error) {
        // Refused: the pass's look at unseen txs judges it. No answer: owed to the next pass.
        reportSkipped(ctx, 'reorg_rebroadcast', back, error)
        if (!isRefusal(error)) oweBroadcast(retries, back, 'reorg_rebroadcast')
      }
    }
    try {
      const next = await nextNonceFromNode(ctx, chain, first)
      await ctx.storage.transaction([], (tx) =>
        tx.put('nonces', { id: nonceIdOf(chain.chainId, first.from), next }),
      )
    } catch (error) {
      reportSkipped(ctx, 'reorg_next_nonce', first, error)
      oweNonce(retries, chain, first)
    }
  })
}
