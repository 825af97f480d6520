import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { addressSchema } from '../schemas/primitives.js'
import { buildDraft } from '../transactions/buildDraft.js'
import { evaluateIntent } from '../transactions/evaluateIntent.js'
import { sendSchema } from '../transactions/sendSchema.js'
import { intentOfDraft } from '../transactions/submitIntent.js'
import { findWallet } from '../wallets/findWallet.js'
import type { PolicyDecision } from './types.js'

export type EvaluatePolicyParameters = z.input<typeof sendSchema> & { from: string }

/**
 * A dry run of the policy for a send: the decision with every rule's outcome, and no side effects
 * (nothing stored, nothing reserved, no events).
 * @example const { decision } = await evaluatePolicy(ctx, principal, { from, to, value: '2' })
 */
export async function evaluatePolicy(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: EvaluatePolicyParameters,
): Promise<PolicyDecision> {
  const { from, ...rest } = parameters
  const send = parseInput(sendSchema, rest)
  const wallet = await findWallet(ctx, principal, parseInput(addressSchema, from))
  const chain = ctx.chains.get(send.chain ?? wallet.chain)
  const draft = await buildDraft(chain, send)
  return evaluateIntent(ctx, wallet, intentOfDraft(draft, chain.name, wallet.address))
}
