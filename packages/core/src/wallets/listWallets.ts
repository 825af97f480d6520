import { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { pageFields } from '../schemas/primitives.js'
import type { Filter } from '../storage/types.js'
import { toWallet, type Wallet, type WalletRecord } from './types.js'

/** A page of wallets, oldest first: at most `limit` (default 100, at most 1000) from `offset`. */
export const walletListQuerySchema = z.strictObject({
  ...pageFields({ defaultLimit: 100, maxLimit: 1000 }),
})
export type ListWalletsParameters = z.input<typeof walletListQuerySchema>

/**
 * The wallets the principal manages: an agent's own, or every wallet of the tenant for approvers
 * and admins; oldest first, one page at a time (`count` is the total, for paging).
 * @example const { wallets, count } = await listWalletPage(ctx, principal, { limit: 50, offset: 50 })
 */
export async function listWalletPage(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: ListWalletsParameters = {},
): Promise<{ count: number; limit: number; offset: number; wallets: Wallet[] }> {
  const { limit, offset } = parseInput(walletListQuerySchema, parameters)
  const where = managedBy(principal)
  const [count, records] = await Promise.all([
    ctx.storage.count('wallets', { where }),
    ctx.storage.query<WalletRecord>('wallets', { where, orderBy: 'createdAt', limit, offset }),
  ])
  return { count, limit, offset, wallets: records.map(toWallet) }
}

/**
 * One page of the wallets the principal manages (see {@link listWalletPage}; default the first 100).
 * @example const wallets = await listWallets(ctx, principal)
 */
export async function listWallets(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: ListWalletsParameters = {},
): Promise<Wallet[]> {
  return (await listWalletPage(ctx, principal, parameters)).wallets
}

function managedBy(principal: Principal): Filter {
  return principal.role === 'agent'
    ? { tenantId: principal.tenantId, ownerId: principal.id }
    : { tenantId: principal.tenantId }
}
