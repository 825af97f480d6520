import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { findWallet } from './findWallet.js'
import { toWallet, type Wallet } from './types.js'

/**
 * One managed wallet the principal may see.
 * @example const { wallet } = await getWallet(ctx, principal, { wallet: '0x…' })
 */
export async function getWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  input: { wallet: string },
): Promise<{ wallet: Wallet }> {
  return { wallet: toWallet(await findWallet(ctx, principal, input.wallet)) }
}
