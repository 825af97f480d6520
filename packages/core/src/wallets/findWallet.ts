import type { Address } from 'viem'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { walletAddressSchema } from '../schemas/primitives.js'
import type { WalletRecord } from './types.js'

/**
 * The wallet at `address` if the principal may act on it: its tenant's, and for an agent its own.
 * Anything else is `not_found`, so another tenant's wallets do not leak.
 * @example const wallet = await findWallet(ctx, principal, '0x…')
 */
export async function findWallet(
  ctx: Pick<AgentWalletContext, 'storage'>,
  principal: Principal,
  address: string,
): Promise<WalletRecord> {
  const checksummed: Address = parseInput(walletAddressSchema, address)
  const [wallet] = await ctx.storage.query('wallets', { where: { address: checksummed } })
  if (!wallet || !canSee(principal, wallet))
    throw new NotFoundError('Wallet', { details: { address: checksummed } })
  return wallet
}

/** Whether the principal may see or act on the wallet. */
export function canSee(principal: Principal, wallet: Pick<WalletRecord, 'tenantId' | 'ownerId'>): boolean {
  if (wallet.tenantId !== principal.tenantId) return false
  return principal.role !== 'agent' || wallet.ownerId === principal.id
}
