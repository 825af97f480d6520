import { type Address, getAddress } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { Effect, EffectAsset } from './types.js'

/**
 * The native coin of `chain` as an effect's asset.
 * @example nativeAsset(chain) // { standard: 'native', address: 'native', symbol: 'ETH', decimals: 18 }
 */
export function nativeAsset(chain: Pick<ChainHandle, 'nativeSymbol' | 'nativeDecimals'>): EffectAsset {
  return { standard: 'native', address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals }
}

/** An effect, its addresses checksummed and `unlimited` only when set (so equal effects compare equal). */
export function effect(
  kind: Effect['kind'],
  asset: EffectAsset,
  amount: bigint,
  counterparty: Address,
  unlimited = false,
): Effect {
  // Checksummed, whether the address came from calldata, a trace (lower case) or the caller.
  const token = asset.address === 'native' ? asset : { ...asset, address: getAddress(asset.address) }
  const to = getAddress(counterparty)
  return unlimited
    ? { kind, asset: token, amount, unlimited: true, counterparty: to }
    : { kind, asset: token, amount, counterparty: to }
}
