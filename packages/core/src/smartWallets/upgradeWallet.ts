import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { ConflictError } from '../errors/errors.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import type { Principal } from '../principals/types.js'
import { accountAbstractionOf } from '../smartAccounts/accountAbstractionOf.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { findWallet } from '../wallets/findWallet.js'
import { toWallet, type Wallet, type WalletRecord } from '../wallets/types.js'
import type { upgradeWalletSchema } from '../wallets/walletSchemas.js'
import { delegateByRelayer } from './delegateByRelayer.js'
import { issueSessionGrant } from './issueSessionGrant.js'
import { toStoredSession } from './storedSession.js'

/** Statuses of a record whose tx may still take the wallet's next account nonce. */
const inFlight = ['queued', 'submitted', 'pending_approval'] as const

/**
 * Upgrades an EOA wallet in place by EIP-7702: its own key (which stays in the vault) signs the
 * authorization to EIP7702StatelessDeleGator, a new session key gets a grant compiled from the
 * wallet's rules and signed by that same key, and the tenant's relayer delegates both EOAs in one
 * type-4 transaction. The record then is a smart wallet (`account: 'eip7702'`, owner = its own key):
 * its sends go out as the session account's user operations; its address and funds do not change. A
 * wallet that is not an EOA is `wallet_kind_unsupported`; one with a send in flight (which may still
 * take the nonce the authorization is signed at) is a `conflict`.
 * @example const { wallet } = await upgradeWallet(ctx, admin, { wallet: '0x…' })
 */
export async function upgradeWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof upgradeWalletSchema>,
  options: IdempotencyOptions = {},
): Promise<{ wallet: Wallet }> {
  return withIdempotency(ctx, principal, 'wallet.upgrade', input, options, async () => {
    const found = await findWallet(ctx, principal, input.wallet)
    const chain = ctx.chains.get(found.chain)
    accountAbstractionOf(chain)
    return withLock(ctx.storage, [walletLockKey(found.address)], async () => {
      const wallet = (await ctx.storage.get('wallets', found.id)) ?? found
      requireUpgradable(wallet)
      const open = await ctx.storage.count('transactions', {
        where: { walletId: wallet.id, status: [...inFlight] },
      })
      if (open > 0)
        throw new ConflictError('The wallet has transactions in flight; upgrade it once they settle', {
          details: { wallet: wallet.address, inFlight: open },
        })
      const sessionKey = await ctx.vault.createKey()
      const grant = await issueSessionGrant(ctx, chain, {
        tenantId: wallet.tenantId,
        walletId: wallet.id,
        wallet: wallet.address,
        owner: wallet.address,
        sessionKey,
      })
      await delegateByRelayer(ctx, chain, wallet.tenantId, [wallet.address, sessionKey], {
        walletId: wallet.id,
      })
      const upgraded: WalletRecord = {
        ...wallet,
        kind: 'smart',
        smart: { owner: wallet.address, account: 'eip7702', sessionKey, session: toStoredSession(grant) },
      }
      await ctx.storage.transaction([], (tx) => tx.put('wallets', upgraded))
      return { wallet: toWallet(upgraded) }
    })
  })
}

/** Only an EOA wallet can be upgraded: a smart one already is, a relayer serves the others. */
function requireUpgradable(wallet: WalletRecord): void {
  const kind = wallet.kind ?? 'eoa'
  if (kind === 'eoa') return
  throw new BaseError(
    'wallet_kind_unsupported',
    `A ${kind} wallet cannot be upgraded; only an EOA wallet can`,
    {
      details: { wallet: wallet.address, kind, flow: 'upgrade' },
    },
  )
}
