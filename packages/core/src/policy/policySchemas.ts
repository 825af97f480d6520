import * as z from 'zod/mini'
import { storedEffectsSchema } from '../effects/storedEffectsSchema.js'
import { out } from '../schemas/out.js'
import { walletAddressSchema } from '../schemas/primitives.js'

/** A stored rule: an id, a type and the type's own fields (the policy engine defines the kinds). */
export const policyRuleSchema = z.looseObject({ id: z.string(), type: z.string() })

const decisionKind = z.enum(['allow', 'deny', 'require_approval'])

/** A policy decision: what decided, and every rule's outcome with its numbers. */
export const policyDecisionSchema = z.object({
  decision: decisionKind,
  ruleId: z.optional(z.string()),
  ruleType: z.optional(z.string()),
  reason: z.string(),
  details: z.optional(z.record(z.string(), z.unknown())),
  outcomes: z.array(
    z.object({
      ruleId: z.string(),
      type: z.string(),
      scope: z.enum(['tenant', 'agent', 'wallet']),
      decision: decisionKind,
      reason: z.string(),
      details: z.optional(z.record(z.string(), z.unknown())),
    }),
  ),
})

const agentField = z
  .string()
  .check(z.minLength(1), z.maxLength(100), z.describe('An API key id (key_…): the agent holding wallets'))

/** One scope at a time: a wallet's rules or an agent's, not both. */
const oneScope = <T extends { wallet?: unknown; agent?: unknown }>() =>
  z.refine<T>((input) => !(input.wallet && input.agent), {
    message: 'Name either a wallet or an agent, not both',
    path: ['agent'],
  })

export const policyRulesQuerySchema = z
  .strictObject({
    wallet: z.optional(walletAddressSchema).check(z.describe('Also answer this wallet’s own rules')),
    agent: z.optional(agentField.check(z.describe('Also answer this agent key’s own rules'))),
  })
  .check(oneScope())

export const updatePolicySchema = z
  .strictObject({
    wallet: z
      .optional(walletAddressSchema)
      .check(z.describe('Replace this wallet’s rules (default: the tenant’s)')),
    agent: z.optional(
      agentField.check(
        z.describe(
          'Replace this agent key’s rules: counted over every wallet the key holds, on every chain, in one window',
        ),
      ),
    ),
    rules: z.array(z.unknown()).check(z.maxLength(200), z.describe('The whole new rule set of that scope')),
  })
  .check(oneScope())
export type UpdatePolicyParameters = z.input<typeof updatePolicySchema>

/** The tenant's rules, and a wallet's own rules when one was named. */
export const policyRulesSchema = z.object({
  tenant: z.array(policyRuleSchema),
  wallet: z.optional(z.object({ address: out.address, rules: z.array(policyRuleSchema) })),
  agent: z.optional(
    z.object({
      id: z.string(),
      name: z.string(),
      rules: z.array(policyRuleSchema).check(z.describe('Counted over every wallet the key holds')),
    }),
  ),
})
export type PolicyRulesReturnType = z.infer<typeof policyRulesSchema>

/** The dry run's answer: the decision, and the effects it judged (amount rules' details name them by index). */
export const evaluatePolicyAnswerSchema = z.object({
  decision: policyDecisionSchema,
  effects: storedEffectsSchema,
})
