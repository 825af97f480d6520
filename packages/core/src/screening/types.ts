import type { ChainFamily } from '../vault/types.js'

/** What a screening source says of a counterparty or a call: nothing known against it, a caution, a stop. */
export type ScreeningVerdict = 'clear' | 'warn' | 'block'

/** A counterparty to screen: an address in its family's form, on one chain, for one tenant's sends. */
export type ScreeningSubject = {
  tenantId: string
  chain: string
  chainId: number
  family: ChainFamily
  address: string
}

/** A whole call to screen, for a source that can judge calls (a vendor simulating it). */
export type ScreeningCall = {
  tenantId: string
  chain: string
  chainId: number
  family: ChainFamily
  from: string
  to: string
  /** Native value in base units, as a decimal string. */
  value: string
  data?: string | undefined
}

/** A list entry that decided a verdict: which list, and the reason its operator gave. */
export type ScreeningListHit = { listId: string; listName: string; shared: boolean; reason: string }

/**
 * One source's answer. `reasons` say why (empty for a plain clear); `lists` name the operator list
 * entries behind a list source's verdict.
 */
export type ScreeningResult = {
  verdict: ScreeningVerdict
  source: string
  reasons: readonly string[]
  lists?: readonly ScreeningListHit[] | undefined
}

/**
 * The ScreeningSource port: who a counterparty is, before anything is signed. An answer is a verdict;
 * a source that cannot answer (no reply, a 5xx, a refusal, an answer it cannot read) throws
 * `ScreeningUnavailableError` (`screening_unavailable`): an outage is never "clear".
 * `screenCall` is optional: only sources that can judge a whole call (a simulation) have it.
 * Prove an adapter with `runScreeningSourceConformance` from `@agentwallet/core/testing`.
 * @example const result = await source.screenAddress({ tenantId, chain: 'base', chainId: 8453, family: 'evm', address })
 */
export interface ScreeningSource {
  readonly name: string
  screenAddress(subject: ScreeningSubject): Promise<ScreeningResult>
  screenCall?(call: ScreeningCall): Promise<ScreeningResult>
}

/** Why a counterparty is one: who the intent pays, calls, grants to or pays out of. */
export type CounterpartyRole = 'recipient' | 'payee' | 'contract' | 'spender' | 'safe'

/** A source that could not answer for a subject (an address, or `call`). */
export type ScreeningOutage = { source: string; subject: string; reason: string }

/**
 * What the screening sources said of an intent, gathered by core before the pure engine runs: each
 * counterparty of its effects with its roles and every source's result, the whole call's results
 * (sources that judge calls), and each outage. Present when `engine.screeningQuery(rules)` asked.
 */
export type ScreeningFacts = {
  counterparties: { address: string; roles: CounterpartyRole[]; results: ScreeningResult[] }[]
  call?: { to: string; results: ScreeningResult[] } | undefined
  outages: ScreeningOutage[]
}

/**
 * What the rules ask of screening: which sources (undefined: every configured one) and what an
 * outage does — `closed` refuses the intent (`screening_unavailable`), `approval` pauses it for a
 * human, `open` lets the other rules decide.
 */
export type ScreeningQuery = {
  sources?: readonly string[] | undefined
  onOutage: 'closed' | 'approval' | 'open'
}
