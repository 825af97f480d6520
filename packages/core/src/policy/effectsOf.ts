import type { Effect } from '../effects/types.js'
import type { PolicyIntent } from '../intents/types.js'

/**
 * The effects a rule judges an intent by. `known`: what the transaction does (`assumed` when the
 * caller gave none and the intent's kind says it exactly: a transfer or an x402 payment moves
 * `amount` of `asset` to `to`). Otherwise why not, and the `floor`: what its fields declare (a
 * call's native value), which it moves at least.
 */
export type JudgedEffects =
  | { known: true; effects: readonly Effect[]; assumed?: true | undefined }
  | { known: false; status: 'unknown' | 'reverted' | 'absent'; reason: string; floor: readonly Effect[] }

/**
 * What the engine counts for an intent: its effects when known, else why they are not.
 * @example const judged = effectsOf(intent); if (!judged.known) judged.reason
 */
export function effectsOf(intent: PolicyIntent): JudgedEffects {
  const effects = intent.effects
  if (effects?.status === 'known') return { known: true, effects: effects.effects }
  const floor = declaredEffects(intent)
  if (!effects) {
    // A caller from before effects (or a plugin's test) judging a plain payment: its fields are its effects.
    if (intent.via === undefined && (intent.kind === 'transfer' || intent.kind === 'x402_payment'))
      return { known: true, effects: floor, assumed: true }
    return { known: false, status: 'absent', reason: 'no effects were given for this intent', floor }
  }
  return { known: false, status: effects.status, reason: effects.reason, floor }
}

/** The outflow the intent's fields declare (none for an amount of 0), valued as the intent was. */
function declaredEffects(intent: PolicyIntent): Effect[] {
  if (intent.amount === 0n) return []
  return [
    {
      kind: 'out',
      asset: { ...intent.asset, standard: intent.asset.address === 'native' ? 'native' : 'erc20' },
      amount: intent.amount,
      counterparty: intent.to,
      ...(intent.usd ? { usd: intent.usd } : {}),
    },
  ]
}
