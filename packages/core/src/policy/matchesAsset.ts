import type { IntentAsset } from '../intents/types.js'

/**
 * True when a rule's asset ("native", a token address or a symbol) names the intent's asset.
 * @example matchesAsset('usdc', { address: '0xA0b8…', symbol: 'USDC', decimals: 6 }) // true
 */
export function matchesAsset(ruleAsset: string, asset: IntentAsset): boolean {
  if (ruleAsset === 'native') return asset.address === 'native'
  if (ruleAsset.startsWith('0x')) return sameAsset(ruleAsset, asset.address)
  return ruleAsset.toLowerCase() === asset.symbol.toLowerCase()
}

/** Compares two asset ids ('native' or addresses) ignoring address case. */
export function sameAsset(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase()
}
