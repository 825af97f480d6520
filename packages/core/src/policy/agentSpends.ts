import type { AgentWalletContext } from '../context.js'
import type { StorageReader } from '../storage/types.js'
import type { TransactionRecord } from '../transactions/types.js'
import type { WalletRecord } from '../wallets/types.js'
import { countedStatuses } from './countedStatuses.js'

/**
 * The counted intents since `since` of every wallet the key holding `wallet` holds (its `ownerId`),
 * on every chain: what an agent-scoped rule counts. Two indexed reads: the key's wallets, then
 * their transactions by the list of wallet ids.
 * @example const records = await agentSpends(ctx, wallet, new Date(now - 86_400_000))
 */
export async function agentSpends(
  ctx: Pick<AgentWalletContext, 'storage'>,
  wallet: Pick<WalletRecord, 'tenantId' | 'ownerId'>,
  since: Date,
  reader: StorageReader = ctx.storage,
): Promise<TransactionRecord[]> {
  const held = await reader.query('wallets', {
    where: { tenantId: wallet.tenantId, ownerId: wallet.ownerId },
  })
  if (held.length === 0) return []
  return reader.query('transactions', {
    where: { walletId: held.map((each) => each.id), status: countedStatuses },
    range: { field: 'createdAt', gte: since.toISOString() },
  })
}
