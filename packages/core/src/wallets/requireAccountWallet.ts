import { BaseError } from '../errors/baseError.js'
import type { WalletKind, WalletRecord } from './types.js'

/**
 * The flows an EOA and a smart wallet both take (a smart wallet's calls go out as its session key's
 * user operations, its signatures as its owner key's EIP-1271 ones): only the tenant's relayer
 * account, which acts for no agent, is refused with 422 `wallet_kind_unsupported`.
 * @example const wallet = requireAccountWallet(await findWallet(ctx, principal, input.wallet), 'register an identity')
 */
export function requireAccountWallet(wallet: WalletRecord, flow: string): WalletRecord {
  return requireWalletKind(wallet, flow, ['eoa', 'smart'])
}

/**
 * The wallet, when its kind is one `kinds` takes (a wallet without a kind is an EOA); any other is
 * refused with 422 `wallet_kind_unsupported` before anything is signed or saved.
 */
function requireWalletKind(wallet: WalletRecord, flow: string, kinds: readonly WalletKind[]): WalletRecord {
  const kind = wallet.kind ?? 'eoa'
  if (kinds.includes(kind)) return wallet
  const use = `a wallet of kind ${kinds.join(' or ')}`
  throw new BaseError('wallet_kind_unsupported', `A ${kind} wallet cannot ${flow} yet; use ${use}`, {
    details: { wallet: wallet.address, kind, flow },
  })
}
