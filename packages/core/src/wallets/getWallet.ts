import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { findWallet } from './findWallet.js'
import { sponsoredGasOf } from './sponsoredGasOf.js'
import { toWallet, type Wallet } from './types.js'

/**
 * One managed wallet the principal may see; a smart wallet's view adds the gas the tenant's paymaster
 * paid for it in the last 24 hours (`smart.sponsoredGas`, when a paymaster serves its tenant).
 * @example const { wallet } = await getWallet(ctx, principal, { wallet: '0x…' })
 */
export async function getWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  input: { wallet: string },
): Promise<{ wallet: Wallet }> {
  const record = await findWallet(ctx, principal, input.wallet)
  const wallet = toWallet(record)
  const sponsoredGas = wallet.smart && (await sponsoredGasOf(ctx, record))
  return { wallet: sponsoredGas ? { ...wallet, smart: { ...wallet.smart!, sponsoredGas } } : wallet }
}
