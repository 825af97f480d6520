import * as z from 'zod/mini'
import {
  addressSchema,
  decimalAmountSchema,
  displayTextSchema,
  durationSchema,
} from '../schemas/primitives.js'

/** Stored lists are indexed once per rule; the cap keeps one rule from exhausting memory. */
const maxListLength = 100_000
const symbolPattern = /^[A-Za-z0-9._$-]{1,32}$/

/** The rule asset that means US dollars: the rule counts every asset, valued from price feeds. */
export const usdAsset = 'usd'

/**
 * `"native"` (the chain's coin), `"usd"` (every asset, valued in US dollars), a token address
 * (checksummed on output), or a token symbol. A symbol matches any asset carrying it, so prefer
 * addresses for tokens you do not control; a token whose symbol is "USD" needs its address.
 */
export const ruleAssetSchema = z.pipe(
  z.string(),
  // A mini transform gets the parse payload (no `addIssue`): its issues are pushed as they are.
  z.transform((value, payload) => {
    if (value.toLowerCase() === 'native') return 'native'
    if (value.toLowerCase() === usdAsset) return usdAsset
    if (/^0x/i.test(value)) {
      const parsed = addressSchema.safeParse(value)
      if (parsed.success) return parsed.data
      for (const issue of parsed.error.issues)
        payload.issues.push({ code: 'custom', message: issue.message, input: value })
      return z.NEVER
    }
    if (symbolPattern.test(value)) return value
    payload.issues.push({
      code: 'custom',
      message: 'Asset must be "native", a token address or a token symbol',
      input: value,
    })
    return z.NEVER
  }),
)

const selectorSchema = z.pipe(
  z
    .string()
    .check(z.regex(/^0x[0-9a-fA-F]{8}$/, { message: 'Selector must be 0x followed by 8 hex characters' })),
  z.transform((value) => value.toLowerCase()),
)

const clockSchema = z
  .string()
  .check(z.regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, { message: 'Time must be HH:MM (00:00 to 24:00)' }))

export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const

const timeZoneSchema = z
  .string()
  .check(z.refine(isTimeZone, { message: 'Unknown time zone (use "UTC" or an IANA name)' }))

const addressListSchema = z.array(addressSchema).check(z.maxLength(maxListLength))

/**
 * Fields every rule may carry. `id` is assigned by `validateRules` when missing. Both are shown to
 * approvers beside a paused send, so both are display text (the description may span lines).
 */
const common = {
  id: z.optional(displayTextSchema(128).check(z.minLength(1))),
  description: z.optional(displayTextSchema(500, { multiline: true })),
  enabled: z.optional(z.boolean()),
}

export const maxPerTxRuleSchema = z.strictObject({
  ...common,
  type: z.literal('max_per_tx'),
  asset: ruleAssetSchema,
  max: decimalAmountSchema,
})

export const spendLimitRuleSchema = z.strictObject({
  ...common,
  type: z.literal('spend_limit'),
  asset: ruleAssetSchema,
  max: decimalAmountSchema,
  window: durationSchema,
  /**
   * For `asset: "usd"`: what an outflow of an asset with no price feed does — `deny` (the default:
   * never counted as zero) or `skip` (a budget over the priced assets only). A priced asset whose
   * feed is stale or invalid denies either way.
   */
  unpriced: z.optional(z.enum(['deny', 'skip'])),
})

export const allowRecipientsRuleSchema = z.strictObject({
  ...common,
  type: z.literal('allow_recipients'),
  addresses: addressListSchema,
})

export const denyRecipientsRuleSchema = z.strictObject({
  ...common,
  type: z.literal('deny_recipients'),
  addresses: addressListSchema,
})

export const allowContractsRuleSchema = z.strictObject({
  ...common,
  type: z.literal('allow_contracts'),
  contracts: z
    .array(
      z.strictObject({
        address: addressSchema,
        /** Omitted: any function of the contract. */
        selectors: z.optional(z.array(selectorSchema).check(z.minLength(1), z.maxLength(1_000))),
      }),
    )
    .check(z.maxLength(maxListLength)),
})

export const allowChainsRuleSchema = z.strictObject({
  ...common,
  type: z.literal('allow_chains'),
  chains: z.array(displayTextSchema(64).check(z.minLength(1))).check(z.maxLength(1_000)),
})

export const requireApprovalRuleSchema = z
  .strictObject({
    ...common,
    type: z.literal('require_approval'),
    /** Pause when the amount is strictly above this (in `asset` units; `asset` defaults to native). */
    above: z.optional(decimalAmountSchema),
    /** Limits the rule to one asset; without it the rule covers every asset (but `above` needs units). */
    asset: z.optional(ruleAssetSchema),
    newRecipients: z.optional(z.boolean()),
    always: z.optional(z.boolean()),
    /**
     * Pause any allowance or operator grant (ERC-20/721/1155 approvals, Permit2) to a spender that is
     * neither in `spenders` nor a venue of the chain's address book (its routers).
     */
    grants: z.optional(z.boolean()),
    /** Spenders a grant may go to without a pause (with `grants: true`). */
    spenders: z.optional(addressListSchema),
  })
  .check(
    z.refine(
      (rule) =>
        rule.above !== undefined ||
        rule.newRecipients === true ||
        rule.always === true ||
        rule.grants === true,
      {
        message: 'require_approval needs a trigger: above, newRecipients: true, always: true or grants: true',
      },
    ),
    z.refine((rule) => rule.spenders === undefined || rule.grants === true, {
      message: 'spenders lists who a grant may go to: it needs grants: true',
      path: ['spenders'],
    }),
    z.refine((rule) => rule.asset !== usdAsset || rule.above !== undefined, {
      message: 'asset "usd" is a unit for above: without above, leave asset out to cover every asset',
      path: ['above'],
    }),
  )

export const rateLimitRuleSchema = z.strictObject({
  ...common,
  type: z.literal('rate_limit'),
  max: z.number().check(z.int(), z.gte(0), z.lte(1_000_000)),
  window: durationSchema,
})

export const timeWindowRuleSchema = z
  .strictObject({
    ...common,
    type: z.literal('time_window'),
    days: z.array(z.enum(weekdays)).check(z.minLength(1), z.maxLength(7)),
    from: clockSchema,
    to: clockSchema,
    tz: z._default(timeZoneSchema, 'UTC'),
  })
  .check(
    z.refine((rule) => rule.from !== rule.to, {
      message: 'from and to must differ (use from "00:00" to "24:00" for the whole day)',
      path: ['to'],
    }),
    z.refine((rule) => new Set(rule.days).size === rule.days.length, {
      message: 'days must not repeat',
      path: ['days'],
    }),
  )

/**
 * An x402 payment's payee must be the `agentWallet` of an agent in the chain's ERC-8004 Identity
 * Registry; with `minReputation`, that agent's average feedback from the listed reviewers (never every
 * reviewer: anyone can leave feedback) must reach `minScore` over at least `minCount` reviews.
 */
export const requireAgentIdentityRuleSchema = z.strictObject({
  ...common,
  type: z.literal('require_agent_identity'),
  minReputation: z.optional(
    z.strictObject({
      reviewers: z.array(addressSchema).check(z.minLength(1), z.maxLength(100)),
      minScore: decimalAmountSchema,
      minCount: z._default(z.number().check(z.int(), z.gte(1), z.lte(1_000_000)), 1),
      tag1: z._default(displayTextSchema(64), ''),
      tag2: z._default(displayTextSchema(64), ''),
    }),
  ),
})

/**
 * Judges an intent whose effects are not known (the node could not simulate it, the simulation
 * reverted, or none were given): `deny` it, or pause it for a human. Such an intent is never judged
 * as moving nothing.
 */
export const unknownEffectsRuleSchema = z.strictObject({
  ...common,
  type: z.literal('unknown_effects'),
  action: z.enum(['deny', 'require_approval']),
})

/**
 * The tenant's verifying paymaster pays a smart wallet's gas while the sponsored gas within `window`
 * stays at most `max` (in the chain's coin, e.g. "0.05" ETH), counted over this `wallet` or the whole
 * `tenant`. It never judges a send: when it does not allow sponsorship, the wallet pays its own gas.
 */
export const sponsorGasRuleSchema = z.strictObject({
  ...common,
  type: z.literal('sponsor_gas'),
  max: decimalAmountSchema,
  window: z._default(durationSchema, '1d'),
  over: z._default(z.enum(['wallet', 'tenant']), 'tenant'),
})

/**
 * Screens every counterparty of the intent's effects (recipients, spenders, x402 payees, the Safe a
 * payment leaves) and a contract call as a whole with the deployment's screening sources (`sources`:
 * by name; absent: all). A `block` denies; a `warn` does `onWarn`; a source that cannot answer does
 * `onOutage`: `closed` refuses the send (`screening_unavailable`), `approval` pauses it, `open` lets
 * the other rules decide.
 */
export const screenCounterpartiesRuleSchema = z.strictObject({
  ...common,
  type: z.literal('screen_counterparties'),
  sources: z.optional(
    z.array(z.string().check(z.regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/))).check(z.minLength(1), z.maxLength(20)),
  ),
  onWarn: z._default(z.enum(['require_approval', 'deny', 'allow']), 'require_approval'),
  onOutage: z._default(z.enum(['closed', 'approval', 'open']), 'closed'),
})

/** Every rule kind of the rules engine, discriminated on `type`. Unknown fields are rejected. */
export const policyRuleSchema = z.discriminatedUnion('type', [
  maxPerTxRuleSchema,
  spendLimitRuleSchema,
  allowRecipientsRuleSchema,
  denyRecipientsRuleSchema,
  allowContractsRuleSchema,
  allowChainsRuleSchema,
  requireApprovalRuleSchema,
  rateLimitRuleSchema,
  timeWindowRuleSchema,
  requireAgentIdentityRuleSchema,
  unknownEffectsRuleSchema,
  sponsorGasRuleSchema,
  screenCounterpartiesRuleSchema,
])

export type MaxPerTxRule = z.output<typeof maxPerTxRuleSchema>
export type SpendLimitRule = z.output<typeof spendLimitRuleSchema>
export type AllowRecipientsRule = z.output<typeof allowRecipientsRuleSchema>
export type DenyRecipientsRule = z.output<typeof denyRecipientsRuleSchema>
export type AllowContractsRule = z.output<typeof allowContractsRuleSchema>
export type AllowChainsRule = z.output<typeof allowChainsRuleSchema>
export type RequireApprovalRule = z.output<typeof requireApprovalRuleSchema>
export type RateLimitRule = z.output<typeof rateLimitRuleSchema>
export type TimeWindowRule = z.output<typeof timeWindowRuleSchema>
export type RequireAgentIdentityRule = z.output<typeof requireAgentIdentityRuleSchema>
export type UnknownEffectsRule = z.output<typeof unknownEffectsRuleSchema>
export type SponsorGasRule = z.output<typeof sponsorGasRuleSchema>
export type ScreenCounterpartiesRule = z.output<typeof screenCounterpartiesRuleSchema>
/** A parsed rule of the rules engine (its JSON input shape is `z.input<typeof policyRuleSchema>`). */
export type RulesEngineRule = z.output<typeof policyRuleSchema>
export type RulesEngineRuleInput = z.input<typeof policyRuleSchema>
export type RuleKind = RulesEngineRule['type']

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return true
  } catch {
    return false
  }
}
