import type { Address } from 'viem'
import { agentIdOf } from './agentIdOf.js'
import type { IntentDraft, PolicyIntent } from './types.js'

/**
 * What the policy engine sees of a draft: the call's value and recipient in the asset's terms.
 * @example const intent = intentOfDraft(draft, chain.name, wallet.address)
 */
export function intentOfDraft(draft: IntentDraft, chain: string, from: Address): PolicyIntent {
  return {
    kind: draft.kind,
    chain,
    from,
    to: draft.to,
    asset: draft.asset,
    amount: draft.amount,
    data: draft.call.data,
    via: draft.via,
    payeeAgentId: agentIdOf(draft.meta),
  }
}
