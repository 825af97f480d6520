import type { Hex } from 'viem'
import type { Delegation } from '../smartAccounts/delegation.js'
import { delegationHash } from '../smartAccounts/delegationHash.js'
import type { OffChainRule } from '../smartAccounts/permissionsFromRules.js'
import type { SessionDelegations } from '../smartAccounts/sessionDelegations.js'
import type { SessionPermissions } from '../smartAccounts/sessionPermissions.js'
import type { StoredSession } from '../wallets/types.js'

/** A session grant as issued: signed delegations, their permissions and the rules left off chain. */
export type SessionGrant = {
  delegations: SessionDelegations
  permissions: SessionPermissions
  offChainOnly: readonly OffChainRule[]
  issuedAt: Date
  /** The native bounds are the default rules' (`nativeFloorOf`): the wallet's rules set none on chain. */
  nativeFromDefaults?: boolean | undefined
}

/**
 * The grant as a wallet record keeps it: JSON-safe, every bigint a decimal string, with the
 * delegations' hashes beside them.
 * @example const session = toStoredSession(grant)
 */
export function toStoredSession(grant: SessionGrant): StoredSession {
  return {
    delegations: jsonSafe(grant.delegations),
    delegationHashes: delegationsOf(grant.delegations).map(delegationHash),
    permissions: jsonSafe(grant.permissions),
    offChainOnly: grant.offChainOnly.map((rule) => ({ ...rule, ruleId: rule.ruleId })),
    issuedAt: grant.issuedAt.toISOString(),
    expiresAt: new Date(grant.permissions.expiresAt * 1000).toISOString(),
    ...(grant.nativeFromDefaults ? { nativeFromDefaults: true } : {}),
  }
}

/** The signed delegations of a stored grant (or a superseded one), as `redeemCalldata` takes them. */
export function sessionDelegationsOf(session: Pick<StoredSession, 'delegations'>): SessionDelegations {
  const stored = session.delegations as StoredDelegations
  return {
    calls: stored.calls && delegationOf(stored.calls),
    transfers: stored.transfers.map(({ token, delegation }) => ({
      token,
      delegation: delegationOf(delegation),
    })),
  }
}

/** The permissions of a stored grant, amounts as bigints again. */
export function sessionPermissionsOf(session: StoredSession): SessionPermissions {
  const stored = session.permissions as Jsonified<SessionPermissions>
  const allowance = (value: { amount: string; period: number }) => ({
    amount: BigInt(value.amount),
    period: value.period,
  })
  const { native, tokens, expiresAt, targets, selectors } = stored
  return {
    expiresAt,
    ...(targets ? { targets } : {}),
    ...(selectors ? { selectors } : {}),
    ...(native
      ? {
          native: {
            ...(native.perCall === undefined ? {} : { perCall: BigInt(native.perCall) }),
            ...(native.allowance ? { allowance: allowance(native.allowance) } : {}),
          },
        }
      : {}),
    ...(tokens
      ? { tokens: tokens.map(({ token, allowance: each }) => ({ token, allowance: allowance(each) })) }
      : {}),
  }
}

/** Every delegation of a grant: the calls' one, then one per metered token. */
export function delegationsOf(delegations: SessionDelegations): Delegation[] {
  return [
    ...(delegations.calls ? [delegations.calls] : []),
    ...delegations.transfers.map(({ delegation }) => delegation),
  ]
}

type Jsonified<T> = T extends bigint
  ? string
  : T extends Hex | string | number | boolean | undefined
    ? T
    : T extends readonly (infer Item)[]
      ? Jsonified<Item>[]
      : { [Key in keyof T]: Jsonified<T[Key]> }

type StoredDelegations = Jsonified<SessionDelegations>

function delegationOf(stored: Jsonified<Delegation>): Delegation {
  return { ...stored, salt: BigInt(stored.salt) }
}

function jsonSafe<T>(value: T): Jsonified<T> {
  return JSON.parse(JSON.stringify(value, (_, item) => (typeof item === 'bigint' ? item.toString() : item)))
}
