import type { Address, Hex } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import { decodeEffects } from './decodeEffects.js'
import { simulateEffects } from './simulateEffects.js'
import type { Effects } from './types.js'

/** The EVM call whose effects are predicted. */
export type PredictedCall = { to: Address; value: bigint; data?: Hex | undefined }

/**
 * What `call`, sent by `from`, will do to `holder`'s assets (`holder` is `from`, or the Safe a wallet
 * executes for): decoded from the calldata of a standard call (`decodeEffects`), else simulated on
 * the node at the pending block (`simulateEffects`), else `unknown`. A plain native transfer to an
 * account without code is decoded and costs one `getCode`, no simulation; one to a contract is
 * simulated (its `receive` may do anything, such as pull tokens through an earlier allowance). A node
 * that does not answer throws `chain_unavailable`: an outage is never "no effects".
 * @example const effects = await predictEffects(chain, { from: wallet.address }, { to, value, data })
 */
export async function predictEffects(
  chain: ChainHandle,
  accounts: { from: Address; holder?: Address | undefined },
  call: PredictedCall,
): Promise<Effects> {
  const decoded = await decodeEffects(chain, accounts, call)
  if (decoded) return { status: 'known', source: 'decoded', effects: decoded }
  return simulateEffects(chain, accounts, call)
}
