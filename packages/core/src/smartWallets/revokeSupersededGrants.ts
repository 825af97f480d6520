import type { Hex } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { accountAbstractionOf } from '../smartAccounts/accountAbstractionOf.js'
import { delegationHash } from '../smartAccounts/delegationHash.js'
import { delegationManagerAbi } from '../smartAccounts/delegationManagerAbi.js'
import { revokeCall, walletCalldata } from '../smartAccounts/walletCalls.js'
import { userOperationLockKey, withLock } from '../storage/withLock.js'
import type { StoredSession, SupersededGrant, WalletRecord } from '../wallets/types.js'
import { ownerUserOperation } from './fundSession.js'
import { delegationsOf, sessionDelegationsOf } from './storedSession.js'

export type RevokeSupersededGrantsReturnType = 'none' | 'revoked' | 'waiting'

/**
 * Revokes on chain every grant a smart wallet no longer uses (`session.superseded`), in one owner op
 * (`disableDelegation` of each delegation still enabled, paid from the wallet's ETH) — once the wallet
 * has code: a HybridDeleGator not deployed yet has nothing to revoke them with, so they wait for its
 * first op. The chain decides what is left to do: each pass reads `disabledDelegations` first, so a
 * crash anywhere (before the op, after it, before the record says so) only makes a later pass send
 * for what is still enabled, or mark what is already disabled. A grant is `revokedAt` once the chain
 * holds all of its delegations disabled; one past its expiry is dropped (it is dead either way).
 * After an op or a refusal the next waits `rebroadcastAfterMs` (unless `now`: a rules change).
 * Answers `none` when nothing is left to revoke, `revoked` when the chain shows this pass's op
 * revoked them all, else `waiting`.
 * @example await revokeSupersededGrants(ctx, wallet.id, { now: true })
 */
export function revokeSupersededGrants(
  ctx: AgentWalletContext,
  walletId: string,
  { now: immediately = false }: { now?: boolean } = {},
): Promise<RevokeSupersededGrantsReturnType> {
  // The owner's ops share one EntryPoint nonce: this one waits for a top-up or an intent's op.
  return withLock(ctx.storage, [userOperationLockKey(walletId)], async () => {
    const wallet = await ctx.storage.get('wallets', walletId)
    const smart = wallet?.smart
    if (!wallet || !smart) return 'none'
    const now = ctx.now()
    const live = (smart.session.superseded ?? []).filter(({ expiresAt }) => new Date(expiresAt) > now)
    if (!live.some(({ revokedAt }) => !revokedAt)) {
      await saveRevocations(ctx, wallet, { superseded: live })
      return 'none'
    }
    const chain = ctx.chains.get(wallet.chain)
    if (smart.account === 'hybrid' && !(await hasCode(chain, wallet))) {
      if (live.length !== smart.session.superseded?.length)
        await saveRevocations(ctx, wallet, { superseded: live })
      return 'waiting'
    }
    const seen = await markDisabled(chain, live, now)
    const enabled = enabledDelegationsOf(seen.grants, seen.disabled)
    const last = smart.session.revocation
    const recent = last && now.getTime() - new Date(last.at).getTime() < ctx.options.rebroadcastAfterMs
    const bundler = ctx.bundlerOf?.(wallet.tenantId, chain.name)
    if (enabled.length === 0 || (recent && !immediately) || !bundler) {
      const changed = seen.grants.some((grant, index) => grant !== live[index])
      if (changed || live.length !== smart.session.superseded?.length)
        await saveRevocations(ctx, wallet, { superseded: seen.grants })
      return enabled.length === 0 ? 'none' : 'waiting'
    }
    let revocation: StoredSession['revocation'] = { at: now.toISOString() }
    try {
      const sent = await ownerUserOperation(
        ctx,
        chain,
        wallet,
        smart,
        bundler,
        walletCalldata(enabled.map(revokeCall)),
        {
          deployedOnly: true,
        },
      )
      if (!sent) revocation = last
    } catch (error) {
      // The bundler refused (the wallet cannot pay yet, a nonce taken): the next pass tries again.
      if (!isAgentWalletError(error) || error.code === 'chain_unavailable') throw error
      revocation = { at: now.toISOString(), error: error.code }
    }
    const after = await markDisabled(chain, seen.grants, now)
    await saveRevocations(ctx, wallet, { superseded: after.grants, revocation })
    return after.grants.every(({ revokedAt }) => revokedAt) ? 'revoked' : 'waiting'
  })
}

async function hasCode(chain: ChainHandle, wallet: WalletRecord): Promise<boolean> {
  const code = await chain.client.getCode({ address: wallet.address }).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  return (code ?? '0x') !== '0x'
}

/** The grants, each `revokedAt` now if the chain holds every one of its delegations disabled. */
async function markDisabled(
  chain: ChainHandle,
  grants: readonly SupersededGrant[],
  now: Date,
): Promise<{ grants: SupersededGrant[]; disabled: ReadonlySet<Hex> }> {
  const { delegationManager } = accountAbstractionOf(chain)
  const hashes = grants
    .filter(({ revokedAt }) => !revokedAt)
    .flatMap(({ delegationHashes }) => delegationHashes)
  const flags = await Promise.all(
    hashes.map((hash) =>
      chain.client.readContract({
        address: delegationManager,
        abi: delegationManagerAbi,
        functionName: 'disabledDelegations',
        args: [hash],
      }),
    ),
  ).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  const disabled = new Set(hashes.filter((_, index) => flags[index]))
  return {
    grants: grants.map((grant) =>
      grant.revokedAt || !grant.delegationHashes.every((hash) => disabled.has(hash))
        ? grant
        : { ...grant, revokedAt: now.toISOString() },
    ),
    disabled,
  }
}

function enabledDelegationsOf(grants: readonly SupersededGrant[], disabled: ReadonlySet<Hex>) {
  return grants
    .filter(({ revokedAt }) => !revokedAt)
    .flatMap((grant) => delegationsOf(sessionDelegationsOf(grant)))
    .filter((delegation) => !disabled.has(delegationHash(delegation)))
}

/** Writes the superseded grants (and the last attempt) onto the wallet as stored now, flag beside. */
async function saveRevocations(
  ctx: AgentWalletContext,
  wallet: WalletRecord,
  changes: Pick<StoredSession, 'superseded'> & { revocation?: StoredSession['revocation'] },
): Promise<void> {
  await ctx.storage.transaction([], async (tx) => {
    const current = (await tx.get('wallets', wallet.id)) ?? wallet
    if (!current.smart) return
    const session: StoredSession = { ...current.smart.session, superseded: changes.superseded }
    if ('revocation' in changes) session.revocation = changes.revocation
    if (!session.superseded?.length) delete session.superseded
    if (!session.revocation) delete session.revocation
    const pending = session.superseded?.some(({ revokedAt }) => !revokedAt) ?? false
    const { grantsToRevoke: _, ...rest } = current
    await tx.put('wallets', {
      ...rest,
      smart: { ...current.smart, session },
      ...(pending ? { grantsToRevoke: true } : {}),
    })
  })
}
