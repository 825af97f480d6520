import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { defaultTenantRules } from '../policy/defaultRules.js'
import { policyRuleSchema, type RulesEngineRule } from '../policy/ruleSchemas.js'
import { permissionsFromRules } from '../smartAccounts/permissionsFromRules.js'
import type { SessionPermissions } from '../smartAccounts/sessionPermissions.js'

/**
 * The native bounds a session grant takes when its wallet's rules set none on chain: those of the
 * tenants' default rules (`defaultTenantRules` of the configuration), or of the built-in defaults
 * (1 ETH a call, 5 ETH a day) when the configured ones bound nothing (`defaultTenantRules: []`).
 * @example const floor = nativeFloorOf(ctx, chain)
 */
export function nativeFloorOf(ctx: AgentWalletContext, chain: ChainHandle): SessionPermissions['native'] {
  const nativeOf = (rules: readonly unknown[]) =>
    permissionsFromRules(
      rules.flatMap((rule) => {
        const parsed = policyRuleSchema.safeParse(rule)
        return parsed.success ? [parsed.data as RulesEngineRule] : []
      }),
      { expiresAt: 0, tokens: [], nativeDecimals: chain.nativeDecimals },
    ).permissions.native
  return nativeOf(ctx.options.defaultTenantRules) ?? nativeOf(defaultTenantRules)
}
