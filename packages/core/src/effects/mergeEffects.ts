import type { Effect } from './types.js'

/**
 * One effect per kind, asset (and token id) and counterparty: amounts moved the same way add up; for
 * grants and revokes the last one stands (a second `approve` replaces the first). So a batch of two
 * transfers to one recipient and a trace with two `Transfer` logs of it read the same.
 * @example mergeEffects([out(5, bob), out(3, bob)]) // [out(8, bob)]
 */
export function mergeEffects(effects: readonly Effect[]): Effect[] {
  const merged = new Map<string, Effect>()
  for (const next of effects) {
    const permission = next.kind === 'grant' || next.kind === 'revoke'
    const key = [
      permission ? 'permission' : next.kind,
      next.asset.standard,
      next.asset.address.toLowerCase(),
      next.asset.tokenId ?? '',
      next.counterparty.toLowerCase(),
    ].join(':')
    const previous = merged.get(key)
    if (previous && !permission) merged.set(key, { ...previous, amount: previous.amount + next.amount })
    else {
      // A replaced permission goes to the end, where it happened.
      merged.delete(key)
      merged.set(key, next)
    }
  }
  return [...merged.values()]
}
