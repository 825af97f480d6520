import type { StoredEvent } from '../storage/types.js'
import { tenantOfAuditStream } from './auditStream.js'

/**
 * How a decision entry records the spends the engine counted (`PolicyContext.recent`, audit JSON):
 * as the changes from the list an earlier decision entry recorded — `after` names that entry by its
 * hash, `drop` the positions of its list no longer counted (out of the window, repriced, effects
 * read back), `add` the spends inserted, each at its position in this list. With no `after`, `add`
 * is the whole list. So a wallet's spends are written once each, not once per later decision.
 */
export type RecordedSpends = {
  after?: string | undefined
  drop?: number[] | undefined
  add: [position: number, spend: unknown][]
}

/**
 * The list a recorded form stands for, given the list of the entry it names (`base`; `[]` with no
 * `after`). Throws on positions the lists do not have (a malformed or altered entry).
 * @example resolveRecordedSpends({ after, drop: [0], add: [[1, spend]] }, base)
 */
export function resolveRecordedSpends(recorded: RecordedSpends, base: readonly unknown[]): unknown[] {
  const dropped = new Set(recorded.drop ?? [])
  for (const position of dropped)
    if (!Number.isSafeInteger(position) || position < 0 || position >= base.length)
      throw new Error(`drops position ${position} of a list of ${base.length}`)
  const list = base.filter((_, position) => !dropped.has(position))
  let last = -1
  for (const [position, spend] of recorded.add) {
    if (!Number.isSafeInteger(position) || position <= last || position > list.length)
      throw new Error(`adds at position ${position} of a list of ${list.length}`)
    list.splice(position, 0, spend)
    last = position
  }
  return list
}

/**
 * The recorded form of a list of spends, given as each spend's audit JSON text (`keys`), against
 * `base` (an earlier decision's list, by `after`): the spends of `base` still counted, in the same
 * order, are kept; the rest of `base` is dropped and the rest added where it stands, parsed from its
 * text. Items compare by their text; only the added ones are parsed.
 * @example encodeRecordedSpends(spends.map(auditJsonText), { after: hash, keys })
 */
export function encodeRecordedSpends(
  keys: readonly string[],
  base?: { after: string; keys: readonly string[] } | undefined,
): RecordedSpends {
  if (!base) return { add: keys.map((key, position) => [position, JSON.parse(key)]) }
  const positionsOf = new Map<string, number[]>()
  for (const [position, key] of base.keys.entries()) {
    const positions = positionsOf.get(key) ?? []
    positions.push(position)
    positionsOf.set(key, positions)
  }
  const kept = new Set<number>()
  const add: [number, unknown][] = []
  let last = -1
  for (const [position, key] of keys.entries()) {
    const positions = positionsOf.get(key)
    // The first unused position of the same spend in `base`, if it keeps the kept ones in order.
    while (positions?.length && positions[0]! <= last) positions.shift()
    const match = positions?.shift()
    if (match === undefined) add.push([position, JSON.parse(key)])
    else {
      kept.add(match)
      last = match
    }
  }
  const drop = base.keys.flatMap((_, position) => (kept.has(position) ? [] : [position]))
  return { after: base.after, ...(drop.length > 0 ? { drop } : {}), add }
}

/**
 * What this process knows each wallet's last committed decision recorded, so the next decision
 * records only the changes. An entry is remembered when its commit is seen (`committed`, from
 * `storage.onEvents`), never before: the entry a decision names is always earlier in the chain.
 * Bounded; a process that has forgotten (restarted, another replica) records the whole list.
 */
export type RecordedSpendsMemory = {
  /** The last committed list of a scope (a wallet and chain), if this process knows it. */
  latest(scope: string): { after: string; keys: readonly string[] } | undefined
  /** Notes an appended entry's list, to become `latest` once its commit is seen. */
  appended(entry: { id: string; hash: string }, scope: string, keys: readonly string[]): void
  /** The onEvents listener: promotes the committed entries. */
  committed(events: readonly StoredEvent[]): void
}

/**
 * A fresh memory holding at most `capacity` scopes and as many uncommitted entries (a rolled-back
 * entry is forgotten when the bound is reached).
 * @example const memory = recordedSpendsMemory(); storage.onEvents(memory.committed)
 */
export function recordedSpendsMemory(capacity = 10_000): RecordedSpendsMemory {
  const latest = new Map<string, { after: string; keys: readonly string[] }>()
  const pending = new Map<string, { scope: string; after: string; keys: readonly string[] }>()
  const bounded = <V>(map: Map<string, V>, key: string, value: V): void => {
    map.delete(key)
    map.set(key, value)
    if (map.size > capacity) map.delete(map.keys().next().value as string)
  }
  return {
    latest: (scope) => latest.get(scope),
    appended: ({ id, hash }, scope, keys) => bounded(pending, id, { scope, after: hash, keys }),
    committed(events) {
      for (const event of events) {
        if (tenantOfAuditStream(event.stream) === undefined) continue
        const entry = pending.get(event.id)
        if (!entry) continue
        pending.delete(event.id)
        bounded(latest, entry.scope, { after: entry.after, keys: entry.keys })
      }
    },
  }
}
