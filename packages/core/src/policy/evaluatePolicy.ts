import type { AgentWalletContext } from '../context.js'
import { toStoredEffects } from '../effects/toStoredEffects.js'
import type { StoredEffects } from '../effects/types.js'
import { buildDraft } from '../intents/buildDraft.js'
import { intentOfDraft } from '../intents/intentOfDraft.js'
import type { Principal } from '../principals/types.js'
import type { SendInput } from '../transactions/sendSchema.js'
import { findWallet } from '../wallets/findWallet.js'
import { effectsAhead } from './effectsAhead.js'
import { evaluateIntent } from './evaluateIntent.js'
import type { PolicyDecision, RuleOutcome } from './types.js'

/**
 * A dry run of the policy for a send: the effects it was judged by and the decision with every
 * rule's outcome (an amount rule's details list the effects it counted, by index), and no side
 * effects (nothing stored, nothing reserved, no events).
 * @example const { decision, effects } = await evaluatePolicy(ctx, principal, { wallet, to, value: '2' })
 */
export async function evaluatePolicy(
  ctx: AgentWalletContext,
  principal: Principal,
  input: SendInput,
): Promise<{ decision: PolicyDecision & { outcomes: RuleOutcome[] }; effects: StoredEffects }> {
  const { wallet: address, ...send } = input
  const wallet = await findWallet(ctx, principal, address)
  const chain = ctx.chains.get(send.chain ?? wallet.chain)
  const draft = await buildDraft(chain, send)
  const predicted = await effectsAhead(chain, wallet.address, draft)
  // The USD value is in the deciding rule's details.usd; the stored form is for records only.
  const {
    usd: _stored,
    inputs: _inputs,
    effects = predicted,
    ...decision
  } = await evaluateIntent(ctx, wallet, intentOfDraft(draft, chain.name, wallet.address, predicted))
  return { decision: { ...decision, outcomes: [...decision.outcomes] }, effects: toStoredEffects(effects) }
}
