import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { findWallet } from '../wallets/findWallet.js'
import { toTransactionView } from './toTransactionView.js'
import type { historyQuerySchema, TransactionView } from './transactionSchemas.js'

/**
 * A wallet's transactions, newest first, with every status (blocked and paused ones too).
 * @example const { transactions } = await listHistory(ctx, principal, { wallet, limit: 20 })
 */
export async function listHistory(
  ctx: AgentWalletContext,
  principal: Principal,
  { wallet: address, limit, offset }: z.output<typeof historyQuerySchema>,
): Promise<{ count: number; limit: number; offset: number; transactions: TransactionView[] }> {
  const wallet = await findWallet(ctx, principal, address)
  const where = { walletId: wallet.id }
  const [count, records] = await Promise.all([
    ctx.storage.count('transactions', { where }),
    ctx.storage.query('transactions', {
      where,
      orderBy: 'createdAt',
      order: 'desc',
      limit,
      offset,
    }),
  ])
  const explorer = (chain: string) => ctx.chains.list().find((info) => info.name === chain)?.explorerUrl
  return {
    count,
    limit,
    offset,
    transactions: records.map((record) => toTransactionView(record, explorer(record.chain))),
  }
}
