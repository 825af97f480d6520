import type { z } from 'zod'
import { appendAudit } from '../audit/appendAudit.js'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { findWallet } from '../wallets/findWallet.js'
import type { PolicyRulesReturnType, updatePolicySchema } from './policySchemas.js'
import { type PolicyRecord, tenantPolicyId, tenantRules, walletPolicyId, walletRules } from './policyStore.js'

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
 * Replaces the rule set of one scope (the tenant, or one wallet). Only admins are declared for it:
 * an agent cannot loosen its own policy. The engine validates every rule and assigns ids.
 * @example await updatePolicyRules(ctx, admin, { rules: [{ type: 'max_per_tx', asset: 'native', max: '0.5' }] })
 */
export async function updatePolicyRules(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof updatePolicySchema>,
): Promise<PolicyRulesReturnType> {
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
  await ctx.storage.transaction([`policy:${record.id}`], async (tx) => {
    await tx.put('policies', record)
    appendAudit(ctx, tx, record.tenantId, {
      kind: 'policy.rules_changed',
      subjects: { walletId: record.walletId, apiKeyId: principal.id },
      payload: { scope: record.scope, rules: record.rules, updatedBy: principal.id },
    })
  })
  return getPolicyRules(ctx, principal, { wallet: wallet?.address })
}
