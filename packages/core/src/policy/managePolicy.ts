import { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { ForbiddenError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { addressSchema } from '../schemas/primitives.js'
import { findWallet } from '../wallets/findWallet.js'
import { type PolicyRecord, tenantPolicyId, tenantRules, walletPolicyId, walletRules } from './policyStore.js'
import type { PolicyRule } from './types.js'

export const updatePolicySchema = z.strictObject({
  wallet: addressSchema.optional(),
  rules: z.array(z.unknown()).max(200),
})
export type UpdatePolicyParameters = z.input<typeof updatePolicySchema>

export type PolicyRulesReturnType = {
  tenant: PolicyRule[]
  wallet?: { address: string; rules: PolicyRule[] } | undefined
}

/**
 * The tenant's rules, and with `wallet` that wallet's own rules too.
 * @example const { tenant, wallet } = await getPolicyRules(ctx, principal, { wallet: address })
 */
export async function getPolicyRules(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: { wallet?: string | undefined } = {},
): Promise<PolicyRulesReturnType> {
  const tenant = await tenantRules(ctx, principal.tenantId)
  if (!parameters.wallet) return { tenant }
  const wallet = await findWallet(ctx, principal, parameters.wallet)
  return { tenant, wallet: { address: wallet.address, rules: await walletRules(ctx, wallet.id) } }
}

/**
 * Replaces the rule set of one scope (the tenant, or one wallet). Admins only: an agent cannot
 * loosen its own policy. The engine validates every rule and assigns ids.
 * @example await updatePolicyRules(ctx, admin, { rules: [{ type: 'max_per_tx', asset: 'native', max: '0.5' }] })
 */
export async function updatePolicyRules(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: UpdatePolicyParameters,
): Promise<PolicyRulesReturnType> {
  if (principal.role !== 'admin') throw new ForbiddenError('Only admin keys may change policy rules')
  const input = parseInput(updatePolicySchema, parameters)
  const rules = ctx.policy.validateRules(input.rules)
  const wallet = input.wallet ? await findWallet(ctx, principal, input.wallet) : undefined
  const record: PolicyRecord = {
    id: wallet ? walletPolicyId(wallet.id) : tenantPolicyId(principal.tenantId),
    tenantId: principal.tenantId,
    scope: wallet ? 'wallet' : 'tenant',
    walletId: wallet?.id,
    rules,
    updatedAt: ctx.now().toISOString(),
    updatedBy: principal.id,
  }
  await ctx.storage.transaction([`policy:${record.id}`], async (tx) => tx.put('policies', record))
  return getPolicyRules(ctx, principal, { wallet: wallet?.address })
}
