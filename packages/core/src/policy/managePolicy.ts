import type { z } from 'zod'
import { appendAudit } from '../audit/appendAudit.js'
import type { AgentWalletContext } from '../context.js'
import { apiKeysCollection } from '../principals/apiKeyTypes.js'
import type { Principal } from '../principals/types.js'
import { findWallet } from '../wallets/findWallet.js'
import { findAgentKey } from './findAgentKey.js'
import type { PolicyRulesReturnType, updatePolicySchema } from './policySchemas.js'
import {
  agentPolicyId,
  agentRules,
  type PolicyRecord,
  tenantPolicyId,
  tenantRules,
  walletPolicyId,
  walletRules,
} from './policyStore.js'

/**
 * The tenant's rules, and with `wallet` that wallet's own rules and those of the key holding it
 * (`agent`), or with `agent` that agent key's (an agent key reads only its own).
 * @example const { tenant, wallet } = await getPolicyRules(ctx, principal, { wallet: address })
 */
export async function getPolicyRules(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: { wallet?: string | undefined; agent?: string | undefined } = {},
): Promise<PolicyRulesReturnType> {
  const tenant = await tenantRules(ctx, principal.tenantId)
  if (parameters.agent) {
    const key = await findAgentKey(ctx, principal, parameters.agent)
    return { tenant, agent: { id: key.id, name: key.name, rules: await agentRules(ctx, key.id) } }
  }
  if (!parameters.wallet) return { tenant }
  const wallet = await findWallet(ctx, principal, parameters.wallet)
  // The key holding the wallet, whose rules apply to it too (none for the in-process owner).
  const [rules, holder] = await Promise.all([
    walletRules(ctx, wallet.id),
    ctx.storage.get(apiKeysCollection, wallet.ownerId),
  ])
  return {
    tenant,
    ...(holder && holder.tenantId === wallet.tenantId
      ? { agent: { id: holder.id, name: holder.name, rules: await agentRules(ctx, holder.id) } }
      : {}),
    wallet: { address: wallet.address, rules },
  }
}

/**
 * Replaces the rule set of one scope (the tenant, one agent key, or one wallet). Only admins are declared for it:
 * an agent cannot loosen its own policy. The engine validates every rule and assigns ids.
 * @example await updatePolicyRules(ctx, admin, { rules: [{ type: 'max_per_tx', asset: 'native', max: '0.5' }] })
 */
export async function updatePolicyRules(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof updatePolicySchema>,
): Promise<PolicyRulesReturnType> {
  const wallet = input.wallet ? await findWallet(ctx, principal, input.wallet) : undefined
  const agent = input.agent ? await findAgentKey(ctx, principal, input.agent) : undefined
  const scope = wallet ? 'wallet' : agent ? 'agent' : 'tenant'
  const rules = ctx.policy.validateRules(input.rules, scope)
  const record: PolicyRecord = {
    id: wallet
      ? walletPolicyId(wallet.id)
      : agent
        ? agentPolicyId(agent.id)
        : tenantPolicyId(principal.tenantId),
    tenantId: principal.tenantId,
    scope,
    walletId: wallet?.id,
    ...(agent ? { apiKeyId: agent.id } : {}),
    rules,
    updatedAt: ctx.now().toISOString(),
    updatedBy: principal.id,
  }
  await ctx.storage.transaction([`policy:${record.id}`], async (tx) => {
    await tx.put('policies', record)
    appendAudit(ctx, tx, record.tenantId, {
      kind: 'policy.rules_changed',
      subjects: { walletId: record.walletId, apiKeyId: principal.id },
      payload: {
        scope: record.scope,
        ...(record.apiKeyId ? { agent: record.apiKeyId } : {}),
        rules: record.rules,
        updatedBy: principal.id,
      },
    })
  })
  return getPolicyRules(ctx, principal, { wallet: wallet?.address, agent: agent?.id })
}
