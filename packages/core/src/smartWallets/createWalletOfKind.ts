import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import type { Principal } from '../principals/types.js'
import { accountAbstractionOf } from '../smartAccounts/accountAbstractionOf.js'
import { smartWalletDeployment } from '../smartAccounts/smartWalletDeployment.js'
import { createWallet, saveWallet } from '../wallets/createWallet.js'
import type { Wallet } from '../wallets/types.js'
import type { createWalletSchema } from '../wallets/walletSchemas.js'
import { delegateByRelayer } from './delegateByRelayer.js'
import { issueSessionGrant } from './issueSessionGrant.js'
import { toStoredSession } from './storedSession.js'

/**
 * Creates a wallet of the asked kind: an EOA (`createWallet`), or a smart wallet — a HybridDeleGator
 * at its counterfactual address, owned by a new vault key, deployed by its first operation — with a
 * session key (another vault key) holding a grant compiled from the wallet's rules and signed by the
 * owner. The relayer delegates the session key's EOA to the session DeleGator (a type-4 tx) before the
 * wallet is saved: a crash between them leaves only an unused delegated key. Neither key leaves the vault.
 * @example const { wallet } = await createWalletOfKind(ctx, principal, { agentName: 'trader', kind: 'smart' })
 */
export async function createWalletOfKind(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof createWalletSchema>,
  options: IdempotencyOptions = {},
): Promise<{ wallet: Wallet }> {
  if (input.kind !== 'smart') return createWallet(ctx, principal, input, options)
  return withIdempotency(ctx, principal, 'wallet.create', input, options, async () => {
    const chain = ctx.chains.get(input.chain ?? ctx.chains.defaultChain)
    const contracts = accountAbstractionOf(chain)
    const owner = await ctx.vault.createKey()
    const sessionKey = await ctx.vault.createKey()
    const { address } = await smartWalletDeployment(contracts, { owner })
    const id = ctx.newId('wal')
    const grant = await issueSessionGrant(ctx, chain, {
      tenantId: principal.tenantId,
      walletId: id,
      wallet: address,
      owner,
      sessionKey,
    })
    await delegateByRelayer(ctx, chain, principal.tenantId, [sessionKey], { walletId: id })
    return saveWallet(ctx, principal, {
      id,
      address,
      agentName: input.agentName,
      chain: chain.name,
      source: 'created',
      kind: 'smart',
      smart: { owner, account: 'hybrid', sessionKey, session: toStoredSession(grant) },
    })
  })
}
