import { BaseError } from '../errors/baseError.js'
import type { WalletRecord } from './types.js'

/**
 * A wallet that acts as an account of its own — an EOA or a smart wallet. A tenant's relayer (it only
 * carries user operations) is refused with 422 `wallet_kind_unsupported` before anything is signed or saved.
 * @example const wallet = requireAccountWallet(await findWallet(ctx, principal, input.wallet), 'sign for a Safe')
 */
export function requireAccountWallet(wallet: WalletRecord, flow: string): WalletRecord {
  const kind = wallet.kind ?? 'eoa'
  if (kind === 'eoa' || kind === 'smart') return wallet
  throw new BaseError(
    'wallet_kind_unsupported',
    `A ${kind} wallet cannot ${flow}; use an EOA or smart wallet`,
    {
      details: { wallet: wallet.address, kind, flow },
    },
  )
}
