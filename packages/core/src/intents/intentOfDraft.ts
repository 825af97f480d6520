import type { Address } from 'viem'
import type { Effects } from '../effects/types.js'
import { agentIdOf } from './agentIdOf.js'
import type { IntentDraft, PolicyIntent } from './types.js'

/**
 * What the policy engine sees of a draft: the call's value and recipient in the asset's terms, and
 * its effects (the draft's own, or those predicted for it).
 * @example const intent = intentOfDraft(draft, chain.name, wallet.address, await effects)
 */
export function intentOfDraft(
  draft: IntentDraft,
  chain: string,
  from: Address,
  effects: Effects | undefined = draft.effects,
): PolicyIntent {
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
    ...(effects ? { effects } : {}),
  }
}
