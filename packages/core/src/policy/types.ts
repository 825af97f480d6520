import type { Address } from 'viem'
import type { Effect } from '../effects/types.js'
import type { PolicyIntent, ReputationQuery, UsdValuation } from '../intents/types.js'
import type { ScreeningQuery } from '../screening/types.js'

/** A stored rule: an id, a type and the type's own fields. The rules engine validates its kinds. */
export type PolicyRule = { id: string; type: string; [field: string]: unknown }

/** Whose rules: the whole tenant's, one agent key's (every wallet it holds, every chain), one wallet's. */
export type RuleScope = 'tenant' | 'agent' | 'wallet'
export type ScopedRule = { scope: RuleScope; rule: PolicyRule }

/** A counted past intent of the same wallet (pending approval, queued, submitted or confirmed). */
export type SpendEntry = {
  asset: Address | 'native'
  amount: bigint
  at: number
  to: Address
  /**
   * Its USD value (present when `engine.needsUsd(rules)`): the value stored when the intent was
   * made, or for an intent made before any USD rule applied, its value at today's price.
   */
  usd?: UsdValuation | undefined
  /**
   * What it did, when its effects were known and stored (each outflow valued in `usd` when
   * `engine.needsUsd(rules)`): amount rules count these outflows. Absent for an intent made before
   * effects were stored, or whose effects were not known: it counts by `asset` and `amount` then.
   */
  effects?: readonly Effect[] | undefined
}

export type PolicyContext = {
  now: Date
  rules: readonly ScopedRule[]
  /** The wallet's counted intents within `lookbackMs(rules)`, any order. */
  recent: readonly SpendEntry[]
  /**
   * For rules of scope `agent`: the counted intents of every wallet the wallet's agent key holds, on
   * every chain, within `lookbackMs` of those rules (this wallet's included), any order. Absent when
   * no agent rule counts a window: such rules then count `recent`.
   */
  agentRecent?: readonly SpendEntry[] | undefined
  /** True when the wallet has never sent to `intent.to` before. */
  isNewRecipient: boolean
  /**
   * Spenders that pull only for the wallet's own calls, each judged when made (the chain's
   * address-book routers): a grant to one is not an outflow, nor a grant a human must see.
   */
  venues?: readonly Address[] | undefined
}

export type PolicyDecisionKind = 'allow' | 'deny' | 'require_approval'

/** The outcome of one rule, with the numbers that decided it. */
export type RuleOutcome = {
  ruleId: string
  type: string
  scope: RuleScope
  decision: PolicyDecisionKind
  reason: string
  details?: Record<string, unknown> | undefined
}

export type PolicyDecision = {
  decision: PolicyDecisionKind
  /** The rule that decided (absent when allowed with no rule objecting). */
  ruleId?: string | undefined
  ruleType?: string | undefined
  reason: string
  details?: Record<string, unknown> | undefined
  /** Every rule's outcome, for explanation and dry runs. */
  outcomes: readonly RuleOutcome[]
}

/**
 * The PolicyEngine port. Pure: no I/O, no clock but `context.now`.
 * @example const decision = engine.evaluate(intent, { now: new Date(), rules, recent: [], isNewRecipient: true })
 */
export interface PolicyEngine {
  readonly name: string
  /**
   * Rejects a rule set the engine cannot enforce (unknown type, bad fields, a kind the `scope` it is
   * stored in cannot hold) with `validation_failed`.
   */
  validateRules(rules: readonly unknown[], scope?: RuleScope): PolicyRule[]
  /** How far back (ms) `context.recent` must reach for these rules. */
  lookbackMs(rules: readonly ScopedRule[]): number
  /**
   * True when these rules need USD values (`intent.usd`, `SpendEntry.usd`): core reads price feeds
   * only then, so an engine without the method (or answering false) costs no feed read.
   */
  needsUsd?(rules: readonly ScopedRule[]): boolean
  /**
   * The reputation reads these rules need, when a rule asks about the payee's ERC-8004 identity
   * (undefined: none does): core then looks the payee up and fills `intent.counterparty`.
   */
  counterpartyQueries?(rules: readonly ScopedRule[]): ReputationQuery[] | undefined
  /**
   * What these rules ask of screening (undefined: no rule screens): core then asks the screening
   * sources about every counterparty of the effects and fills `intent.screening`.
   */
  screeningQuery?(rules: readonly ScopedRule[]): ScreeningQuery | undefined
  evaluate(intent: PolicyIntent, context: PolicyContext): PolicyDecision
}
