import type { Address, Hex } from 'viem'

/** A stored rule: an id, a type and the type's own fields. The rules engine validates its kinds. */
export type PolicyRule = { id: string; type: string; [field: string]: unknown }

export type RuleScope = 'tenant' | 'wallet'
export type ScopedRule = { scope: RuleScope; rule: PolicyRule }

/** The asset an intent spends. `address` is 'native' for the chain's coin. */
export type IntentAsset = { address: Address | 'native'; symbol: string; decimals: number }

/** What the agent wants to do, in base units. The engine sees only this and the context. */
export type PolicyIntent = {
  kind:
    | 'transfer'
    | 'contract_call'
    | 'swap'
    | 'stake'
    | 'identity'
    | 'ens'
    | 'multisig'
    /** A payment an x402 resource server asks for: `to` is the payee, settled off the wallet's nonces. */
    | 'x402_payment'
  chain: string
  from: Address
  /** The recipient of value (transfers) or the contract called. */
  to: Address
  asset: IntentAsset
  amount: bigint
  /** Calldata of a contract call; its first 4 bytes are the selector. */
  data?: Hex | undefined
  /**
   * The contract account the value is paid out of, when it is not `from`'s own balance: the Safe
   * whose `execTransaction` this wallet sends. `to`, `asset` and `amount` then describe what that
   * Safe pays (the real recipient, or an approved spender), and `data` is the call to `via`.
   */
  via?: Address | undefined
  /**
   * What `amount` is worth in US dollars, valued by core from the chain's price feeds before
   * `evaluate` — present only when `engine.needsUsd(rules)` said a rule needs it.
   */
  usd?: UsdValuation | undefined
  /** The agent id the payee claims (an x402 requirement's `extra.agentId`), checked against the registry. */
  payeeAgentId?: string | undefined
  /**
   * What the ERC-8004 registries say of `to`, read by core before `evaluate` — present only when
   * `engine.counterpartyQueries(rules)` asked (for an x402 payment).
   */
  counterparty?: CounterpartyFacts | undefined
}

/** One reputation read: the average feedback of these reviewers, filtered by tags. */
export type ReputationQuery = { reviewers: readonly Address[]; tag1: string; tag2: string }

/**
 * The payee's ERC-8004 identity (`agentId` when its registered `agentWallet` is the payee; else
 * why not) and, per query, its Reputation Registry summary. A failed read is an `error`: an engine
 * must treat it as unknown, never as a pass.
 */
export type CounterpartyFacts = {
  agentId?: string | undefined
  registry?: Address | undefined
  reason: string
  reputation: {
    query: ReputationQuery
    summary?: { count: bigint; value: bigint; decimals: number } | undefined
    error?: string | undefined
  }[]
}

/**
 * A USD figure: `value` in units of 10^-18 USD (`usdDecimals`), rounded up, with the feed round
 * it was priced at (absent for a zero amount, which needs no price) — or why there is none.
 * An engine must treat an `error` (or a missing valuation) as unknown, never as zero.
 */
export type UsdValuation =
  | { value: bigint; price?: UsdPrice | undefined; error?: undefined }
  | { value?: undefined; price?: undefined; error: UsdPriceError }

/** The price a USD value was computed with: one round of one feed. */
export type UsdPrice = {
  /** US dollars per whole unit of the asset: the feed's answer as a decimal string. */
  price: string
  /** The address-book pair, e.g. `ETH/USD`. */
  pair: string
  feed: Address
  roundId: string
  /** When the round was written (ISO 8601). */
  updatedAt: string
}

/** Why an asset has no usable USD price. */
export type UsdPriceError = {
  /**
   * No feed in the address book for the asset; a feed answer older than allowed; a feed without a
   * valid answer; or (engine side) no valuation was passed at all.
   */
  code: 'no_price_feed' | 'stale_price' | 'invalid_price' | 'not_valued'
  asset: Address | 'native'
  symbol: string
  reason: string
  pair?: string | undefined
  feed?: Address | undefined
  updatedAt?: string | undefined
  maxAgeSeconds?: number | undefined
}

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
}

export type PolicyContext = {
  now: Date
  rules: readonly ScopedRule[]
  /** The wallet's counted intents within `lookbackMs(rules)`, any order. */
  recent: readonly SpendEntry[]
  /** True when the wallet has never sent to `intent.to` before. */
  isNewRecipient: boolean
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
  /** Rejects a rule set the engine cannot enforce (unknown type, bad fields) with `validation_failed`. */
  validateRules(rules: readonly unknown[]): PolicyRule[]
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
  evaluate(intent: PolicyIntent, context: PolicyContext): PolicyDecision
}
