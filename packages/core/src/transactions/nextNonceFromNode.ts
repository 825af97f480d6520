import type { Address } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { isSigned } from './types.js'

/**
 * The wallet's next nonce re-derived from the chain: the node's pending count, then past each nonce
 * that a signed tx of ours not yet mined holds right after it (in our lane, or lost by the node and
 * broadcast again by the tracker). A gap ends the run: the next send fills the hole, and the later
 * ones can be mined. Used when our stored next nonce may have run ahead of the chain (a reorg, a
 * refusal of a nonce above the node's count). `pending` is the node's count when the caller has it;
 * `excluding` a tx being failed in the same commit. The caller holds the wallet lock.
 * @example const next = await nextNonceFromNode(ctx, chain, record, { excluding: record.id })
 */
export async function nextNonceFromNode(
  ctx: Pick<AgentWalletContext, 'storage'>,
  chain: ChainHandle,
  wallet: { walletId: string; from: Address },
  options: { pending?: number | undefined; excluding?: string | undefined } = {},
): Promise<number> {
  const [pending, unmined] = await Promise.all([
    options.pending ?? chain.client.getTransactionCount({ address: wallet.from, blockTag: 'pending' }),
    ctx.storage.query('transactions', {
      where: { walletId: wallet.walletId, chain: chain.name, status: ['queued', 'submitted'] },
    }),
  ])
  const held = new Set(
    unmined
      .filter((record) => isSigned(record) && record.id !== options.excluding)
      .map((record) => record.nonce),
  )
  let next = pending
  while (held.has(next)) next++
  return next
}
