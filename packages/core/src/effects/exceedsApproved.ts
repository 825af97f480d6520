import type { StoredEffect, StoredEffects } from './types.js'

/**
 * What `now` does beyond what was `approved`, or undefined when nothing: an outflow or grant with no
 * approved one of the same kind, asset (and token id) and counterparty at least as large, an
 * unlimited grant where a bounded one was approved, or known effects that became unknown or a
 * revert. Inflows and revokes never exceed. An approver who approved unknown effects approved any.
 * @example const beyond = exceedsApproved(approval.effects, predicted); if (beyond) throw …
 */
export function exceedsApproved(approved: StoredEffects, now: StoredEffects): string | undefined {
  if (approved.status !== 'known') return undefined
  if (now.status !== 'known') return `its effects are now ${now.status}`
  for (const effect of now.effects) {
    if (effect.kind !== 'out' && effect.kind !== 'grant') continue
    const covered = approved.effects.some((earlier) => covers(earlier, effect))
    if (!covered) return `it would ${describe(effect)}, which was not approved`
  }
  return undefined
}

function covers(earlier: StoredEffect, effect: StoredEffect): boolean {
  if (earlier.kind !== effect.kind) return false
  if (earlier.counterparty.toLowerCase() !== effect.counterparty.toLowerCase()) return false
  if (earlier.asset.standard !== effect.asset.standard) return false
  if (earlier.asset.address.toLowerCase() !== effect.asset.address.toLowerCase()) return false
  if (earlier.asset.tokenId !== effect.asset.tokenId) return false
  if (effect.unlimited) return earlier.unlimited === true
  return earlier.unlimited === true || BigInt(effect.amount) <= BigInt(earlier.amount)
}

function describe(effect: StoredEffect): string {
  const what = effect.unlimited
    ? `an unlimited amount of ${effect.asset.symbol}`
    : `${effect.amount} base units of ${effect.asset.symbol}`
  return effect.kind === 'out'
    ? `send ${what} to ${effect.counterparty}`
    : `let ${effect.counterparty} spend ${what}`
}
