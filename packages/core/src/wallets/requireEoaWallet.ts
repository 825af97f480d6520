import { BaseError } from '../errors/baseError.js'
import type { WalletKind, WalletRecord } from './types.js'

/**
 * The flows a smart (or relayer) wallet cannot take yet, those signing with the wallet's own key where
 * no contract signature is taken: refused with 422 `wallet_kind_unsupported` before anything is
 * signed or saved.
 * @example const wallet = requireEoaWallet(await actingWallet(ctx, principal, input.wallet), 'deploy a Safe')
 */
export function requireEoaWallet(wallet: WalletRecord, flow: string): WalletRecord {
  return requireWalletKind(wallet, flow, ['eoa'])
}

/**
 * The wallet, when its kind is one `kinds` takes (a wallet without a kind is an EOA); any other is
 * refused with 422 `wallet_kind_unsupported` before anything is signed or saved.
 * @example const wallet = requireWalletKind(await actingWallet(ctx, principal, input.wallet), 'swap', ['eoa', 'smart'])
 */
export function requireWalletKind(
  wallet: WalletRecord,
  flow: string,
  kinds: readonly WalletKind[],
): WalletRecord {
  const kind = wallet.kind ?? 'eoa'
  if (kinds.includes(kind)) return wallet
  const use = `a wallet of kind ${kinds.join(' or ')}`
  throw new BaseError('wallet_kind_unsupported', `A ${kind} wallet cannot ${flow} yet; use ${use}`, {
    details: { wallet: wallet.address, kind, flow },
  })
}
