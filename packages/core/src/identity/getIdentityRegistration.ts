import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { canSee } from '../wallets/findWallet.js'
import { type IdentityRegistration, toIdentityRegistration } from './types.js'

/**
 * One identity registration by its `idn_…` id, in progress or ended: its status, the step it is on
 * and the approval it waits for (poll it after a 202 from `registerIdentity`).
 * @example const { registration } = await getIdentityRegistration(ctx, principal, { registrationId: 'idn_…' })
 */
export async function getIdentityRegistration(
  ctx: AgentWalletContext,
  principal: Principal,
  { registrationId: id }: { registrationId: string },
): Promise<{ registration: IdentityRegistration }> {
  const record = await ctx.storage.get('identities', id)
  if (!record || !canSee(principal, record)) {
    throw new NotFoundError('Identity registration', { details: { id } })
  }
  return { registration: toIdentityRegistration(record) }
}
