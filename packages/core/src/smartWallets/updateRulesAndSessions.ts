import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { updatePolicyRules } from '../policy/managePolicy.js'
import type { PolicyRulesReturnType, updatePolicySchema } from '../policy/policySchemas.js'
import type { Principal } from '../principals/types.js'
import { findWallet } from '../wallets/findWallet.js'
import { reissueSession } from './reissueSession.js'

/**
 * Replaces a rule set (`updatePolicyRules`), then re-issues the session grant of every smart wallet
 * it governs — the one wallet, or every smart wallet of the tenant for its rules (none for an agent's) — so their on-chain
 * permissions follow the rules (`reissueSession`).
 * @example await updateRulesAndSessions(ctx, admin, { wallet, rules })
 */
export async function updateRulesAndSessions(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof updatePolicySchema>,
): Promise<PolicyRulesReturnType> {
  const answer = await updatePolicyRules(ctx, principal, input)
  // An agent's rules span its wallets (one window over all of them): no session grant can hold
  // them, so they are judged off chain only and re-issue nothing.
  if (input.agent) return answer
  const governed = input.wallet
    ? [await findWallet(ctx, principal, input.wallet)]
    : await ctx.storage.query('wallets', { where: { tenantId: principal.tenantId } })
  for (const wallet of governed) if (wallet.kind === 'smart') await reissueSession(ctx, wallet)
  return answer
}
