import type { AgentWalletContext } from '../context.js'
import type { PolicyRule, RuleScope, ScopedRule } from './types.js'

/** One stored rule set: the tenant's (`tenant:<id>`), one agent key's (`agent:<key id>`) or one wallet's (`wallet:<id>`). */
export type PolicyRecord = {
  id: string
  tenantId: string
  scope: RuleScope
  walletId?: string | undefined
  /** The API key of an agent-scoped set. */
  apiKeyId?: string | undefined
  rules: PolicyRule[]
  updatedAt: string
  updatedBy: string
}

export const tenantPolicyId = (tenantId: string) => `tenant:${tenantId}`
export const walletPolicyId = (walletId: string) => `wallet:${walletId}`
export const agentPolicyId = (apiKeyId: string) => `agent:${apiKeyId}`

/**
 * The tenant's rules: the stored set, or the default set for a tenant that never set one.
 * @example const rules = await tenantRules(ctx, 'default')
 */
export async function tenantRules(ctx: AgentWalletContext, tenantId: string): Promise<PolicyRule[]> {
  const record = await ctx.storage.get('policies', tenantPolicyId(tenantId))
  if (record) return record.rules
  // Stable ids (given, or by position) so a dry run and the real evaluation name the same rule.
  return ctx.options.defaultTenantRules.map((rule, index) => ({ id: `default-${index + 1}`, ...rule }))
}

/** The wallet's own rules (none when never set). */
export async function walletRules(ctx: AgentWalletContext, walletId: string): Promise<PolicyRule[]> {
  const record = await ctx.storage.get('policies', walletPolicyId(walletId))
  return record?.rules ?? []
}

/** An agent key's own rules, counted over every wallet it holds (none when never set). */
export async function agentRules(
  ctx: Pick<AgentWalletContext, 'storage'>,
  apiKeyId: string,
): Promise<PolicyRule[]> {
  const record = await ctx.storage.get('policies', agentPolicyId(apiKeyId))
  return record?.rules ?? []
}

/**
 * Tenant, agent and wallet rules together, in that order, as the engine evaluates them. `agentId` is
 * the key that holds the wallet (its `ownerId`); without it the agent's rules are left out.
 * @example const rules = await scopedRules(ctx, wallet.tenantId, wallet.id, wallet.ownerId)
 */
export async function scopedRules(
  ctx: AgentWalletContext,
  tenantId: string,
  walletId: string,
  agentId?: string | undefined,
): Promise<ScopedRule[]> {
  const [tenant, agent, wallet] = await Promise.all([
    tenantRules(ctx, tenantId),
    agentId ? agentRules(ctx, agentId) : [],
    walletRules(ctx, walletId),
  ])
  return [
    ...tenant.map((rule) => ({ scope: 'tenant' as const, rule })),
    ...agent.map((rule) => ({ scope: 'agent' as const, rule })),
    ...wallet.map((rule) => ({ scope: 'wallet' as const, rule })),
  ]
}
