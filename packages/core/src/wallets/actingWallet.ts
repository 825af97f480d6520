import type { AgentWalletContext } from '../context.js'
import { ValidationError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import type { Filter } from '../storage/types.js'
import { findWallet } from './findWallet.js'
import type { WalletRecord } from './types.js'

/**
 * The wallet that acts for a request (DESIGN §6): the one it names, else the caller's only wallet.
 * With none, or several and none named, the request is `validation_failed` (HTTP 400).
 * @example const wallet = await actingWallet(ctx, principal, body.wallet)
 */
export async function actingWallet(
  ctx: Pick<AgentWalletContext, 'storage'>,
  principal: Principal,
  named: string | undefined,
  field = 'wallet',
): Promise<WalletRecord> {
  if (named !== undefined) return findWallet(ctx, principal, named)
  const where: Filter =
    principal.role === 'agent'
      ? { tenantId: principal.tenantId, ownerId: principal.id }
      : { tenantId: principal.tenantId }
  // The tenant's relayer (one at most, kind `relayer`) never acts for a request.
  const wallets = (await ctx.storage.query('wallets', { where, orderBy: 'createdAt', limit: 3 })).filter(
    (wallet) => wallet.kind !== 'relayer',
  )
  if (wallets.length === 1) return wallets[0]!
  const message =
    wallets.length === 0
      ? 'The caller manages no wallet to act with'
      : `The caller manages several wallets: name the one that acts in "${field}"`
  throw new ValidationError(message, { details: { issues: [{ path: field, message }] } })
}
