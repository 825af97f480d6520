import type { Address } from 'viem'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import type { Filter } from '../storage/types.js'
import { findWallet } from '../wallets/findWallet.js'
import { type Identity, type IdentityRecord, isRegisteredIdentity, toIdentity } from './types.js'

export type ListIdentitiesReturnType = { count: number; identities: Identity[] }
export type IdentitiesOfWalletReturnType = ListIdentitiesReturnType & { address: Address }

/**
 * The identities registered through this service that the principal may see (an agent: its own wallets').
 * @example const { identities } = await listIdentities(ctx, principal)
 */
export async function listIdentities(
  ctx: AgentWalletContext,
  principal: Principal,
): Promise<ListIdentitiesReturnType> {
  const where: Filter =
    principal.role === 'agent'
      ? { tenantId: principal.tenantId, ownerId: principal.id }
      : { tenantId: principal.tenantId }
  return toList(await ctx.storage.query('identities', { where, orderBy: 'createdAt' }))
}

/**
 * The identities bound to one managed wallet (`not_found` for a wallet the principal cannot see).
 * @example const { identities } = await identitiesOfWallet(ctx, principal, { wallet: '0x…' })
 */
export async function identitiesOfWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  input: { wallet: string },
): Promise<IdentitiesOfWalletReturnType> {
  const wallet = await findWallet(ctx, principal, input.wallet)
  const records = await ctx.storage.query('identities', {
    where: { tenantId: wallet.tenantId, walletAddress: wallet.address },
    orderBy: 'createdAt',
  })
  return { address: wallet.address, ...toList(records) }
}

function toList(records: IdentityRecord[]): ListIdentitiesReturnType {
  const registered = records.filter(isRegisteredIdentity)
  return { count: registered.length, identities: registered.map(toIdentity) }
}
