import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import type { Filter } from '../storage/types.js'
import { toWallet, type Wallet } from './types.js'
import type { walletListQuerySchema } from './walletSchemas.js'

/**
 * The wallets the principal manages: an agent's own, or every wallet of the tenant for approvers
 * and admins; oldest first, one page at a time (`count` is the total, for paging).
 * @example const { wallets, count } = await listWallets(ctx, principal, { limit: 50, offset: 50 })
 */
export async function listWallets(
  ctx: AgentWalletContext,
  principal: Principal,
  { limit, offset }: z.output<typeof walletListQuerySchema>,
): Promise<{ count: number; limit: number; offset: number; wallets: Wallet[] }> {
  const where = managedBy(principal)
  const [count, records] = await Promise.all([
    ctx.storage.count('wallets', { where }),
    ctx.storage.query('wallets', { where, orderBy: 'createdAt', limit, offset }),
  ])
  return { count, limit, offset, wallets: records.map(toWallet) }
}

function managedBy(principal: Principal): Filter {
  return principal.role === 'agent'
    ? { tenantId: principal.tenantId, ownerId: principal.id }
    : { tenantId: principal.tenantId }
}
