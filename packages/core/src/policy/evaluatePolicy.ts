import type { AgentWalletContext } from '../context.js'
import { buildDraft } from '../intents/buildDraft.js'
import { intentOfDraft } from '../intents/intentOfDraft.js'
import type { Principal } from '../principals/types.js'
import type { SendInput } from '../transactions/sendSchema.js'
import { findWallet } from '../wallets/findWallet.js'
import { evaluateIntent } from './evaluateIntent.js'
import type { PolicyDecision, RuleOutcome } from './types.js'

/**
 * A dry run of the policy for a send: the decision with every rule's outcome, and no side effects
 * (nothing stored, nothing reserved, no events).
 * @example const { decision } = await evaluatePolicy(ctx, principal, { wallet, to, value: '2' })
 */
export async function evaluatePolicy(
  ctx: AgentWalletContext,
  principal: Principal,
  input: SendInput,
): Promise<{ decision: PolicyDecision & { outcomes: RuleOutcome[] } }> {
  const { wallet: address, ...send } = input
  const wallet = await findWallet(ctx, principal, address)
  const chain = ctx.chains.get(send.chain ?? wallet.chain)
  const draft = await buildDraft(chain, send)
  // The USD value is in the deciding rule's details.usd; the stored form is for records only.
  const { usd: _stored, ...decision } = await evaluateIntent(
    ctx,
    wallet,
    intentOfDraft(draft, chain.name, wallet.address),
  )
  return { decision: { ...decision, outcomes: [...decision.outcomes] } }
}
