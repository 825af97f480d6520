import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import type { Filter } from '../storage/types.js'
import { canSee } from '../wallets/findWallet.js'
import { type EnsRegistration, toEnsRegistration } from './types.js'

export type ListEnsNamesReturnType = { count: number; names: EnsRegistration[] }

/**
 * The caller's names: registrations of its wallets (an agent: its own), newest first, in any status.
 * @example const { names } = await listEnsNames(ctx, principal)
 */
export async function listEnsNames(
  ctx: AgentWalletContext,
  principal: Principal,
): Promise<ListEnsNamesReturnType> {
  const where: Filter =
    principal.role === 'agent'
      ? { tenantId: principal.tenantId, ownerId: principal.id }
      : { tenantId: principal.tenantId }
  const records = await ctx.storage.query('ens_names', {
    where,
    orderBy: 'createdAt',
    order: 'desc',
  })
  return { count: records.length, names: records.map(toEnsRegistration) }
}

/**
 * One registration by id (poll it after `registerEnsName` returned `committing`).
 * @example const { registration } = await getEnsRegistration(ctx, principal, { registrationId: 'ens_…' })
 */
export async function getEnsRegistration(
  ctx: AgentWalletContext,
  principal: Principal,
  { registrationId: id }: { registrationId: string },
): Promise<{ registration: EnsRegistration }> {
  const record = await ctx.storage.get('ens_names', id)
  if (!record || !canSee(principal, record)) throw new NotFoundError('ENS registration', { details: { id } })
  return { registration: toEnsRegistration(record) }
}
