import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { revokeSessionCalls, walletCalldata } from '../smartAccounts/walletCalls.js'
import type { StoredSession, WalletRecord } from '../wallets/types.js'
import { ownerUserOperation } from './fundSession.js'
import { issueSessionGrant } from './issueSessionGrant.js'
import { sessionDelegationsOf, toStoredSession } from './storedSession.js'

/**
 * Re-issues a smart wallet's session grant from its current rules (after they changed): a new grant
 * (new salt) signed by the owner replaces the stored one at once — every later op redeems it — and
 * the owner revokes the old delegations on chain (`disableDelegation`, in the wallet's own op through
 * the bundler, paid from the wallet's ETH). When that cannot be done now (a wallet not yet deployed,
 * or without ETH for the op), the old hashes stay listed in `session.unrevoked`, and those delegations
 * lapse at their expiry. Answers the wallet record as saved.
 * @example await reissueSession(ctx, wallet)
 */
export async function reissueSession(ctx: AgentWalletContext, wallet: WalletRecord): Promise<WalletRecord> {
  const smart = wallet.smart
  if (!smart) return wallet
  const chain = ctx.chains.get(wallet.chain)
  const grant = await issueSessionGrant(ctx, chain, {
    tenantId: wallet.tenantId,
    walletId: wallet.id,
    wallet: wallet.address,
    owner: smart.owner,
    sessionKey: smart.sessionKey,
  })
  const before = smart.session
  const unrevoked = [...(before.unrevoked ?? []), ...before.delegationHashes]
  let revoked = false
  try {
    const bundler = ctx.bundlerOf?.(wallet.tenantId, chain.name)
    if (bundler) {
      const calls = revokeSessionCalls(sessionDelegationsOf(before))
      revoked = await ownerUserOperation(ctx, chain, wallet, smart, bundler, walletCalldata(calls), {
        deployedOnly: true,
      })
    }
  } catch (error) {
    if (!isAgentWalletError(error)) throw error
  }
  const session: StoredSession = {
    ...toStoredSession(grant),
    ...(revoked ? (before.unrevoked?.length ? { unrevoked: before.unrevoked } : {}) : { unrevoked }),
  }
  const next: WalletRecord = { ...wallet, smart: { ...smart, session } }
  await ctx.storage.transaction([], async (tx) => {
    const current = await tx.get('wallets', wallet.id)
    await tx.put('wallets', { ...(current ?? wallet), smart: next.smart })
  })
  return next
}
