import type { Address } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { PredictedCall } from './predictEffects.js'
import type { Effects } from './types.js'

/** PLACEHOLDER until the simulation lands: every undecodable call is unknown. */
export async function simulateEffects(
  _chain: ChainHandle,
  _accounts: { from: Address; holder?: Address | undefined },
  _call: PredictedCall,
): Promise<Effects> {
  return { status: 'unknown', reason: 'this call is not a standard one and is not simulated yet' }
}
