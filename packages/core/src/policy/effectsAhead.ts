import type { Address } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { predictEffects } from '../effects/predictEffects.js'
import type { Effects } from '../effects/types.js'
import type { IntentDraft } from '../intents/types.js'
import type { TransactionRecord } from '../transactions/types.js'
import { readStoredEffects } from './storedEffects.js'

type Drafted = Pick<IntentDraft, 'kind' | 'to' | 'asset' | 'amount' | 'via' | 'effects'> & {
  call: { to: Address; value: bigint | string; data?: IntentDraft['call']['data'] }
}

/**
 * What a draft will do to the paying account (the wallet, or the Safe it executes for): the
 * draft's own effects when its caller knew them, an x402 payment's authorization of `amount` to
 * its payee, else predicted on the node (`predictEffects`). Never throws: a node that fails the
 * prediction leaves the effects `unknown`, which a rule judges — so it may start before the wallet
 * lock, like the gas estimate.
 * @example const effects = effectsAhead(chain, wallet.address, draft) // awaited under the lock
 */
export function effectsAhead(chain: ChainHandle, from: Address, draft: Drafted): Promise<Effects> {
  if (draft.effects) return Promise.resolve(draft.effects)
  // An EIP-3009 authorization its payee settles: not a call of the wallet, and exactly this transfer.
  if (draft.kind === 'x402_payment') {
    return Promise.resolve({
      status: 'known',
      source: 'decoded',
      effects: [
        {
          kind: 'out',
          asset: { ...draft.asset, standard: draft.asset.address === 'native' ? 'native' : 'erc20' },
          amount: draft.amount,
          counterparty: draft.to,
        },
      ],
    })
  }
  const call = { to: draft.call.to, value: BigInt(draft.call.value), data: draft.call.data }
  return predictEffects(chain, { from, holder: draft.via }, call).catch(
    (error: unknown): Effects => ({
      status: 'unknown',
      reason: `the node could not predict them (${toChainError(error, chain.name, { read: true }).code})`,
    }),
  )
}

/**
 * The effects a stored intent is judged by when it is executed (an approval): those stored when it
 * was made, or for one made before effects were stored, predicted now.
 * @example const effects = await effectsOfRecord(chain, transaction)
 */
export function effectsOfRecord(chain: ChainHandle, record: TransactionRecord): Promise<Effects> {
  if (record.effects) return Promise.resolve(readStoredEffects(record.effects))
  return effectsAhead(chain, record.from, { ...record, amount: BigInt(record.amount), effects: undefined })
}
