import type { Address } from 'viem'
import type { EffectAsset } from '../effects/types.js'

/**
 * What kind of permission a grant gave: an ERC-20 allowance, a Permit2 allowance (the token's
 * spender through Permit2), an operator over a whole ERC-721 or ERC-1155 collection, or one ERC-721
 * token.
 */
export type AllowanceKind = 'erc20' | 'permit2' | 'operator' | 'erc721_token'

/**
 * A permission the service granted from a wallet, kept when the granting intent was accepted
 * (`allowance_grants`, one record per wallet, chain, kind, asset, token id and spender): the list of
 * what to read back on chain and offer to revoke. Whether it still stands is the chain's to say.
 */
export type AllowanceGrantRecord = {
  id: string
  tenantId: string
  walletId: string
  chain: string
  kind: AllowanceKind
  asset: Omit<EffectAsset, 'tokenId'> & { tokenId?: string | undefined }
  spender: Address
  /** The last intent that granted it. */
  transactionId: string
  grantedAt: string
}
