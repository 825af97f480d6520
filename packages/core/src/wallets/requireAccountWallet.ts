import { requireWalletKind } from './requireEoaWallet.js'
import type { WalletRecord } from './types.js'

/**
 * The flows an EOA and a smart wallet both take (a smart wallet's calls go out as its session key's
 * user operations, its signatures as its owner key's EIP-1271 ones): only the tenant's relayer
 * account, which acts for no agent, is refused with 422 `wallet_kind_unsupported`.
 * @example const wallet = requireAccountWallet(await findWallet(ctx, principal, input.wallet), 'register an identity')
 */
export function requireAccountWallet(wallet: WalletRecord, flow: string): WalletRecord {
  return requireWalletKind(wallet, flow, ['eoa', 'smart'])
}
