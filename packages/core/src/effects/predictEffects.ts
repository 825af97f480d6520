import type { Address, Hex } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { Effects } from './types.js'

/** The EVM call whose effects are predicted. */
export type PredictedCall = { to: Address; value: bigint; data?: Hex | undefined }

/**
 * What `call`, sent by `from`, will do to `holder`'s assets (`holder` is `from`, or the Safe a wallet
 * executes for): decoded from the calldata of a standard call, else simulated on the node at the
 * pending block, else `unknown`. A plain native transfer to an account without code is decoded and
 * costs no simulation.
 * STUB (session 6): the effects module replaces this body; its signature is the contract.
 * @example const effects = await predictEffects(chain, { from: wallet.address }, { to, value, data })
 */
export async function predictEffects(
  _chain: ChainHandle,
  accounts: { from: Address; holder?: Address | undefined },
  call: PredictedCall,
): Promise<Effects> {
  if (call.data === undefined || call.data === '0x') {
    return {
      status: 'known',
      source: 'decoded',
      effects:
        call.value === 0n
          ? []
          : [
              {
                kind: 'out',
                asset: {
                  standard: 'native',
                  address: 'native',
                  symbol: _chain.nativeSymbol,
                  decimals: _chain.nativeDecimals,
                },
                amount: call.value,
                counterparty: call.to,
              },
            ],
    }
  }
  void accounts
  return { status: 'unknown', reason: 'effects of contract calls are not predicted yet' }
}
