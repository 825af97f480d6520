import type { Address, Hex } from 'viem'

/** At most `amount` base units per `period` seconds, counted from the delegation's start. */
export type PeriodicAllowance = { amount: bigint; period: number }

/**
 * What a session key may make a wallet do, as the chain enforces it (the caveats of its delegations).
 * Absent fields do not restrict. Amounts are base units.
 * - `expiresAt`: unix seconds; nothing is redeemable from then on.
 * - `targets`: the only addresses a call may go to (ETH recipients and contracts alike).
 * - `selectors`: the only function selectors a call may carry (a plain ETH send carries none, so it is
 *   refused once this is set).
 * - `native`: the chain coin's cap per call (`perCall`) and its periodic allowance over all calls.
 * - `tokens`: per ERC-20, a periodic allowance for `transfer` calls. A token listed here moves only by
 *   `transfer` through its own metered delegation: any other call that lowers the wallet's balance of it
 *   (a swap's pull, a `transferFrom`) is refused.
 */
export type SessionPermissions = {
  expiresAt: number
  targets?: readonly Address[] | undefined
  selectors?: readonly Hex[] | undefined
  native?: { perCall?: bigint | undefined; allowance?: PeriodicAllowance | undefined } | undefined
  tokens?: readonly { token: Address; allowance: PeriodicAllowance }[] | undefined
}
