import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import type { Filter } from '../storage/types.js'
import { toWallet, type Wallet, type WalletRecord } from './types.js'

/**
 * The wallets the principal manages: an agent's own, or every wallet of the tenant for approvers and admins.
 * @example const wallets = await listWallets(ctx, principal)
 */
export async function listWallets(ctx: AgentWalletContext, principal: Principal): Promise<Wallet[]> {
  const where: Filter =
    principal.role === 'agent'
      ? { tenantId: principal.tenantId, ownerId: principal.id }
      : { tenantId: principal.tenantId }
  const records = await ctx.storage.query<WalletRecord>('wallets', { where, orderBy: 'createdAt' })
  return records.map(toWallet)
}
