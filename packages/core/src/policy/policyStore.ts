import type { AgentWalletContext } from '../context.js'
import type { PolicyRule, ScopedRule } from './types.js'

/** One stored rule set: the tenant's (`tenant:<id>`) or one wallet's (`wallet:<id>`). */
export type PolicyRecord = {
  id: string
  tenantId: string
  scope: 'tenant' | 'wallet'
  walletId?: string | undefined
  rules: PolicyRule[]
  updatedAt: string
  updatedBy: string
}

export const tenantPolicyId = (tenantId: string) => `tenant:${tenantId}`
export const walletPolicyId = (walletId: string) => `wallet:${walletId}`

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

/** Tenant and wallet rules together, as the engine evaluates them. */
export async function scopedRules(
  ctx: AgentWalletContext,
  tenantId: string,
  walletId: string,
): Promise<ScopedRule[]> {
  const [tenant, wallet] = await Promise.all([tenantRules(ctx, tenantId), walletRules(ctx, walletId)])
  return [
    ...tenant.map((rule) => ({ scope: 'tenant' as const, rule })),
    ...wallet.map((rule) => ({ scope: 'wallet' as const, rule })),
  ]
}
