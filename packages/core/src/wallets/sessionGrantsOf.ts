import type { StoredSession, Wallet } from './types.js'

/** A grant as the wallet view lists it. */
export type SessionGrantView = NonNullable<Wallet['smart']>['grants'][number]

/**
 * Every grant of a smart wallet still live on chain or revoked within its lifetime, newest first:
 * the current one `active`; each it replaced `pending_revocation` until the chain shows it disabled,
 * then `revoked`. Hashes of a record made before superseded grants were kept (`unrevoked`) are listed
 * as pending: they expire at the latest with the current grant.
 * @example const grants = sessionGrantsOf(wallet.smart.session)
 */
export function sessionGrantsOf(session: StoredSession): SessionGrantView[] {
  const superseded = [...(session.superseded ?? [])].reverse()
  return [
    {
      state: 'active',
      delegationHashes: session.delegationHashes,
      issuedAt: session.issuedAt,
      expiresAt: session.expiresAt,
    },
    ...superseded.map(({ delegationHashes, issuedAt, expiresAt, revokedAt }) => ({
      state: revokedAt ? ('revoked' as const) : ('pending_revocation' as const),
      delegationHashes,
      issuedAt,
      expiresAt,
      ...(revokedAt ? { revokedAt } : {}),
    })),
    ...(session.unrevoked?.length
      ? [
          {
            state: 'pending_revocation' as const,
            delegationHashes: session.unrevoked,
            expiresAt: session.expiresAt,
          },
        ]
      : []),
  ]
}
