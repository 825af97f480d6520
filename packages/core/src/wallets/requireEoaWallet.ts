import { BaseError } from '../errors/baseError.js'
import type { WalletRecord } from './types.js'

/**
 * The flows a smart (or relayer) wallet cannot take yet — they sign with the wallet's own key (x402,
 * Safe owners, identity proofs), or go out as several user operations where one batch is owed (swaps,
 * ENS, staking): refused with 422 `wallet_kind_unsupported` before anything is signed or saved.
 * @example const wallet = requireEoaWallet(await actingWallet(ctx, principal, input.wallet), 'swap')
 */
export function requireEoaWallet(wallet: WalletRecord, flow: string): WalletRecord {
  const kind = wallet.kind ?? 'eoa'
  if (kind === 'eoa') return wallet
  throw new BaseError('wallet_kind_unsupported', `A ${kind} wallet cannot ${flow} yet; use an EOA wallet`, {
    details: { wallet: wallet.address, kind, flow },
  })
}
