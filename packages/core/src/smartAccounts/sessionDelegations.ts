import { type Address, concat, encodePacked, type Hex } from 'viem'
import type { AccountAbstractionContracts } from '../chain/types.js'
import { type Caveat, type Delegation, rootAuthority } from './delegation.js'
import type { SessionPermissions } from './sessionPermissions.js'

/**
 * The delegations that carry a session key's permissions (unsigned). `calls` lets the session make the
 * wallet execute any call within the targets, selectors and native limits (absent when the targets leave
 * nothing for it); `transfers` holds one per ERC-20 allowance, good only for that token's `transfer`.
 */
export type SessionDelegations = {
  calls?: Delegation | undefined
  transfers: readonly { token: Address; delegation: Delegation }[]
}

type Enforcers = AccountAbstractionContracts['enforcers']

/**
 * Compiles `permissions` into caveats on delegations from `wallet` to `session`. Periodic allowances
 * count from `startsAt` (unix seconds, at most the chain's time: an allowance refuses before its start).
 * A token with an allowance is taken out of `calls`: out of its targets, and guarded by an
 * ERC20BalanceChangeEnforcer that refuses any call through `calls` lowering the wallet's balance of it.
 * @example const { calls, transfers } = sessionDelegations(contracts.enforcers, { wallet, session, permissions, startsAt })
 */
export function sessionDelegations(
  enforcers: Enforcers,
  {
    wallet,
    session,
    permissions,
    startsAt,
    salt = 0n,
  }: { wallet: Address; session: Address; permissions: SessionPermissions; startsAt: number; salt?: bigint },
): SessionDelegations {
  const delegation = (caveats: Caveat[]): Delegation => ({
    delegate: session,
    delegator: wallet,
    authority: rootAuthority,
    caveats,
    salt,
    signature: '0x',
  })
  const expiry = caveat(
    enforcers.timestamp,
    encodePacked(['uint128', 'uint128'], [0n, BigInt(permissions.expiresAt)]),
  )
  const tokens = permissions.tokens ?? []
  const metered = new Set(tokens.map(({ token }) => token.toLowerCase()))
  const targets = permissions.targets?.filter((target) => !metered.has(target.toLowerCase()))
  const callCaveats = [
    expiry,
    ...(targets ? [caveat(enforcers.allowedTargets, concat(targets))] : []),
    ...(permissions.selectors ? [caveat(enforcers.allowedMethods, concat([...permissions.selectors]))] : []),
    ...(permissions.native?.perCall === undefined
      ? []
      : [caveat(enforcers.valueLte, encodePacked(['uint256'], [permissions.native.perCall]))]),
    ...(permissions.native?.allowance
      ? [
          caveat(
            enforcers.nativeTokenPeriodTransfer,
            encodePacked(
              ['uint256', 'uint256', 'uint256'],
              [
                permissions.native.allowance.amount,
                BigInt(permissions.native.allowance.period),
                BigInt(startsAt),
              ],
            ),
          ),
        ]
      : []),
    ...tokens.map(({ token }) =>
      caveat(
        enforcers.erc20BalanceChange,
        encodePacked(['bool', 'address', 'address', 'uint256'], [true, token, wallet, 0n]),
      ),
    ),
  ]
  return {
    calls: targets?.length === 0 ? undefined : delegation(callCaveats),
    transfers: tokens.map(({ token, allowance }) => ({
      token,
      delegation: delegation([
        expiry,
        caveat(
          enforcers.erc20PeriodTransfer,
          encodePacked(
            ['address', 'uint256', 'uint256', 'uint256'],
            [token, allowance.amount, BigInt(allowance.period), BigInt(startsAt)],
          ),
        ),
      ]),
    })),
  }
}

function caveat(enforcer: Address, terms: Hex): Caveat {
  return { enforcer, terms, args: '0x' }
}
