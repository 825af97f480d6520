import type { Address, Hex } from 'viem'
import type { IntentAsset, UsdValuation } from '../intents/types.js'

/**
 * The token standard an effect moves or grants. `permit2` is an allowance held by the Permit2
 * contract (`asset` is the token, `counterparty` the spender Permit2 lets pull it). `spl`: a Solana
 * SPL token (`asset.address` its mint, base58); `native` on a Solana chain is SOL (lamports).
 */
export type EffectStandard = 'native' | 'erc20' | 'erc721' | 'erc1155' | 'permit2' | 'spl'

/** The asset of an effect: the intent's asset shape, plus the token id of an NFT (ERC-721, ERC-1155). */
export type EffectAsset = IntentAsset & { standard: EffectStandard; tokenId?: bigint | undefined }

/**
 * One thing a transaction does to the acting wallet's assets.
 * - `out`: `amount` of `asset` leaves the wallet for `counterparty` (an ERC-721 moves `amount` 1).
 * - `in`: `amount` of `asset` arrives from `counterparty`.
 * - `grant`: `counterparty` (spender, operator) may later move up to `amount` of `asset` out of the
 *   wallet: an ERC-20 `approve` sets the allowance to `amount`, `increaseAllowance` adds `amount`, a
 *   Permit2 `approve` sets Permit2's allowance; `unlimited` when it is the type's maximum (2^256-1,
 *   2^160-1 for Permit2) or an operator grant over a whole collection (`setApprovalForAll(op, true)`,
 *   whose `amount` is 0 and whose asset has no `tokenId`). An ERC-721 `approve(spender, id)` grants
 *   one token (`amount` 1, `tokenId`).
 * - `revoke`: the wallet takes a permission back (`approve(spender, 0)` is a grant of 0, not a
 *   revoke; `decreaseAllowance` and `setApprovalForAll(op, false)` are revokes).
 */
export type Effect = {
  kind: 'out' | 'in' | 'grant' | 'revoke'
  asset: EffectAsset
  /** Base units of `asset`. */
  amount: bigint
  unlimited?: true | undefined
  /** The recipient (out), the sender (in), the spender or operator (grant, revoke). */
  counterparty: Address
  /** What `amount` is worth, when a USD rule asked core to value it (never for an unlimited grant). */
  usd?: UsdValuation | undefined
}

/** Where the effects were learnt: calldata of a standard call, a simulation on the node, or a receipt's logs. */
export type EffectsSource = 'decoded' | 'simulated' | 'receipt'

/**
 * What a transaction does to the acting wallet, or why that is not known. `unknown` and `reverted`
 * must never be read as "moves nothing": a rule judges them with `unknown_effects`.
 */
export type Effects =
  | {
      status: 'known'
      source: EffectsSource
      effects: Effect[]
      /** Gas the simulation used, when it ran one (a gas estimate, with no second call). */
      gasUsed?: bigint | undefined
    }
  | {
      /** The simulation reverted: the call would fail as sent. */
      status: 'reverted'
      source: 'simulated'
      reason: string
      /** The revert data, when the node returned it. */
      data?: Hex | undefined
    }
  | {
      /** Neither decodable nor simulable here (the node supports no simulation; a log no standard decodes). */
      status: 'unknown'
      reason: string
    }

/** An effect as records and answers keep it: amounts and token ids as decimal strings. */
export type StoredEffect = Omit<Effect, 'asset' | 'amount' | 'usd'> & {
  asset: Omit<EffectAsset, 'tokenId'> & { tokenId?: string | undefined }
  amount: string
  /** Its USD value as stored (`StoredUsd` of the transaction record), when it was valued. */
  usd?: { value: string; [field: string]: unknown } | undefined
}

/** `Effects` as records and answers keep them (`toStoredEffects`, `fromStoredEffects`). */
export type StoredEffects =
  | { status: 'known'; source: EffectsSource; effects: StoredEffect[]; gasUsed?: string | undefined }
  | { status: 'reverted'; source: 'simulated'; reason: string; data?: Hex | undefined }
  | { status: 'unknown'; reason: string }
