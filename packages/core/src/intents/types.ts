import type { Address, Hex } from 'viem'
import type { Effects } from '../effects/types.js'
import type { ScreeningFacts } from '../screening/types.js'

/** What a higher-level action wants done: the policy view plus the EVM call that does it. */
export type IntentDraft = {
  kind: PolicyIntent['kind']
  chain: string
  to: Address
  asset: IntentAsset
  amount: bigint
  /** The contract account the value is paid out of, when not the wallet (a Safe it executes for). */
  via?: Address | undefined
  call: { to: Address; value: bigint; data?: Hex | undefined }
  /**
   * Every call of a batch, in order, `call` among them (a smart wallet's approve and swap): one user
   * operation carries them all or none, and the policy judges their effects as one. Absent: `call` alone.
   */
  calls?: readonly { to: Address; value: bigint; data?: Hex | undefined }[] | undefined
  meta?: Record<string, unknown> | undefined
  /**
   * What the call does to the paying account, when its caller knows it exactly (a token send is an
   * ERC-20 transfer): then no node is asked. Absent, core predicts it (`predictEffects`).
   */
  effects?: Effects | undefined
}

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
  /**
   * What the screening sources said of every counterparty of the effects (and of the whole call),
   * gathered by core before `evaluate` — present only when `engine.screeningQuery(rules)` asked.
   */
  screening?: ScreeningFacts | undefined
  /**
   * What the transaction does to the paying account's assets (`from`, or `via`): each asset out and
   * in and each allowance or operator grant, decoded or simulated by core before `evaluate`. Amount
   * rules count the effects' outflows and grants, recipient rules their counterparties. Absent (an
   * engine called by a plugin with no effects) or `unknown` / `reverted` is never "moves nothing".
   */
  effects?: Effects | undefined
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
