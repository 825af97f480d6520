import type { Address, Hex } from 'viem'

/** A stored rule: an id, a type and the type's own fields. The rules engine validates its kinds. */
export type PolicyRule = { id: string; type: string; [field: string]: unknown }

export type RuleScope = 'tenant' | 'wallet'
export type ScopedRule = { scope: RuleScope; rule: PolicyRule }

/** The asset an intent spends. `address` is 'native' for the chain's coin. */
export type IntentAsset = { address: Address | 'native'; symbol: string; decimals: number }

/** What the agent wants to do, in base units. The engine sees only this and the context. */
export type PolicyIntent = {
  kind: 'transfer' | 'contract_call' | 'swap' | 'stake' | 'identity' | 'ens' | 'multisig'
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
}

/** A counted past intent of the same wallet (pending approval, queued, submitted or confirmed). */
export type SpendEntry = { asset: Address | 'native'; amount: bigint; at: number; to: Address }

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
  evaluate(intent: PolicyIntent, context: PolicyContext): PolicyDecision
}
