import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { revokeSupersededGrants } from './revokeSupersededGrants.js'

/**
 * The tracker's pass over smart wallets with a superseded grant still enabled on chain
 * (`grantsToRevoke`): each is revoked by its owner's op once the wallet has code
 * (`revokeSupersededGrants`), so a grant replaced before deployment, or whose revocation a crash or a
 * refusal interrupted, does not stay redeemable until its expiry. A chain outage skips a wallet until
 * the next pass.
 * @example await trackGrantRevocations(ctx, { chains: ['devnet'] })
 */
export async function trackGrantRevocations(
  ctx: AgentWalletContext,
  { chains }: { chains?: readonly string[] | undefined } = {},
): Promise<void> {
  const wallets = await ctx.storage.query('wallets', {
    where: { grantsToRevoke: true, ...(chains ? { chain: chains } : {}) },
    limit: 1000,
  })
  for (const wallet of wallets) {
    try {
      await revokeSupersededGrants(ctx, wallet.id)
    } catch (error) {
      if (!isAgentWalletError(error, 'chain_unavailable')) throw error
    }
  }
}
