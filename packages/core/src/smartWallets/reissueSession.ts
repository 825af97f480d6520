import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { userOperationLockKey, withLock } from '../storage/withLock.js'
import type { StoredSession, WalletRecord } from '../wallets/types.js'
import { issueSessionGrant } from './issueSessionGrant.js'
import { revokeSupersededGrants } from './revokeSupersededGrants.js'
import { toStoredSession } from './storedSession.js'

/**
 * Re-issues a smart wallet's session grant from its current rules (after they changed): a new grant
 * (new salt) signed by the owner replaces the stored one at once — every later op redeems it — and
 * the old one joins `session.superseded` with its signed delegations, the wallet flagged
 * `grantsToRevoke`, in one commit. Then the owner revokes every superseded grant still enabled on
 * chain (`revokeSupersededGrants`: `disableDelegation` in the wallet's own op, paid from its ETH).
 * When that cannot be done now (a wallet not deployed yet, without ETH, the chain unreachable), the
 * tracker's pass does it later (`trackGrantRevocations`): the flag and the kept delegations survive a
 * crash. Answers the wallet record as saved.
 * @example await reissueSession(ctx, wallet)
 */
export async function reissueSession(ctx: AgentWalletContext, wallet: WalletRecord): Promise<WalletRecord> {
  const smart = wallet.smart
  if (!smart) return wallet
  const chain = ctx.chains.get(wallet.chain)
  // Under the lock the revocations take too: neither overwrites what the other saved.
  const saved = await withLock(ctx.storage, [userOperationLockKey(wallet.id)], async () => {
    const grant = await issueSessionGrant(ctx, chain, {
      tenantId: wallet.tenantId,
      walletId: wallet.id,
      wallet: wallet.address,
      owner: smart.owner,
      sessionKey: smart.sessionKey,
    })
    return ctx.storage.transaction([], async (tx) => {
      const current = (await tx.get('wallets', wallet.id)) ?? wallet
      const before = (current.smart ?? smart).session
      const now = ctx.now()
      const session: StoredSession = {
        ...toStoredSession(grant),
        superseded: [
          ...(before.superseded ?? []).filter(({ expiresAt }) => new Date(expiresAt) > now),
          {
            delegations: before.delegations,
            delegationHashes: before.delegationHashes,
            issuedAt: before.issuedAt,
            expiresAt: before.expiresAt,
          },
        ],
        ...(before.unrevoked?.length ? { unrevoked: before.unrevoked } : {}),
      }
      const next: WalletRecord = {
        ...current,
        smart: { ...(current.smart ?? smart), session },
        grantsToRevoke: true,
      }
      await tx.put('wallets', next)
      return next
    })
  })
  try {
    await revokeSupersededGrants(ctx, wallet.id, { now: true })
  } catch (error) {
    // The chain or the bundler is out: the tracker's pass revokes them when it is back.
    if (!isAgentWalletError(error)) throw error
  }
  return (await ctx.storage.get('wallets', wallet.id)) ?? saved
}
