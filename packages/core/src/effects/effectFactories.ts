import type { Address } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { Effect, EffectAsset } from './types.js'

/**
 * The native coin of `chain` as an effect's asset.
 * @example nativeAsset(chain) // { standard: 'native', address: 'native', symbol: 'ETH', decimals: 18 }
 */
export function nativeAsset(chain: Pick<ChainHandle, 'nativeSymbol' | 'nativeDecimals'>): EffectAsset {
  return { standard: 'native', address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals }
}

/** An effect, with `unlimited` only when it is set (so equal effects compare equal). */
export function effect(
  kind: Effect['kind'],
  asset: EffectAsset,
  amount: bigint,
  counterparty: Address,
  unlimited = false,
): Effect {
  return unlimited
    ? { kind, asset, amount, unlimited: true, counterparty }
    : { kind, asset, amount, counterparty }
}
