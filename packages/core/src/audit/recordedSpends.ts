import type { StoredEvent } from '../storage/types.js'
import { auditJsonText, toAuditJson } from './auditJson.js'
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
 * A decision's counted spends, with what is known of each one's version: `keys[i]`, when set, names
 * the stored write `spends[i]` was built from alone (a transaction record's `writeId`), so two spends
 * with the same key are the same without comparing them.
 */
export type SpendList = { spends: readonly unknown[]; keys?: readonly (string | undefined)[] | undefined }

/**
 * The recorded form of a list of spends (engine inputs: bigints and all) against `base` (an earlier
 * decision's list, by `after`): spends of `base` still counted, in the same order, are kept; the rest
 * of `base` is dropped and the rest added where it stands, in audit JSON. A list mostly keeps its
 * order from one decision to the next (a few spends leave the window, a few arrive or change), so
 * each spend is looked for among the next few of `base` first: the same by key when both have one,
 * else compared by value (`sameSpend`); only a list reordered beyond that is indexed by text. Any
 * answer rebuilds the list exactly; the search only keeps it small.
 * @example encodeRecordedSpends({ spends: context.recent, keys }, memory.latest(scope))
 */
export function encodeRecordedSpends(
  { spends, keys }: SpendList,
  base?: (SpendList & { after: string }) | undefined,
): RecordedSpends {
  if (!base) return { add: spends.map((spend, position) => [position, toAuditJson(spend)]) }
  const kept = new Array<boolean>(base.spends.length).fill(false)
  const add: [number, unknown][] = []
  const same = (position: number, index: number): boolean => {
    const key = keys?.[index]
    return (
      (key !== undefined && key === base.keys?.[position]) || sameSpend(base.spends[position], spends[index])
    )
  }
  // Positions of `base` before `next` are kept or dropped: a kept spend is always after the last one.
  let next = 0
  let misses = 0
  let positionsOf: Map<string, number[]> | undefined
  const find = (index: number): number | undefined => {
    const end = Math.min(base.spends.length, next + nearby)
    for (let position = next; position < end; position++) if (same(position, index)) return position
    if (++misses <= nearby) return undefined
    positionsOf ??= indexFrom(base.spends, next)
    const positions = positionsOf.get(auditJsonText(spends[index]))
    while (positions?.length && positions[0]! < next) positions.shift()
    return positions?.shift()
  }
  for (const [position, spend] of spends.entries()) {
    const match = find(position)
    if (match === undefined) add.push([position, toAuditJson(spend)])
    else {
      kept[match] = true
      next = match + 1
    }
  }
  const drop = kept.flatMap((isKept, position) => (isKept ? [] : [position]))
  return { after: base.after, ...(drop.length > 0 ? { drop } : {}), add }
}

/** How far ahead in `base` a spend is looked for, and how many misses pass before `base` is indexed. */
const nearby = 8

function indexFrom(spends: readonly unknown[], from: number): Map<string, number[]> {
  const positionsOf = new Map<string, number[]>()
  for (let position = from; position < spends.length; position++) {
    const text = auditJsonText(spends[position])
    const positions = positionsOf.get(text)
    if (positions) positions.push(position)
    else positionsOf.set(text, [position])
  }
  return positionsOf
}

/**
 * Whether two engine inputs have the same audit JSON, up to the order of object members: plain
 * objects and lists compared member by member, a Date by its time, anything else by its JSON text.
 * False only costs a spend written again, so any doubt answers false.
 */
export function sameSpend(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let index = 0; index < a.length; index++) if (!sameSpend(a[index], b[index])) return false
    return true
  }
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  if (!isPlain(a) || !isPlain(b)) return auditJsonText(a) === auditJsonText(b)
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  let members = 0
  for (const key in left) {
    if (left[key] === undefined) continue
    members++
    if (!Object.hasOwn(right, key) || !sameSpend(left[key], right[key])) return false
  }
  for (const key in right) if (right[key] !== undefined) members--
  return members === 0
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/**
 * What this process knows each wallet's last committed decision recorded, so the next decision
 * records only the changes. An entry is remembered when its commit is seen (`committed`, from
 * `ctx.commits`), never before: the entry a decision names is always earlier in the chain.
 * Bounded; a process that has forgotten (restarted, another replica) records the whole list.
 */
export type RecordedSpendsMemory = {
  /** The last committed list of a scope (a wallet and chain), if this process knows it. */
  latest(scope: string): (SpendList & { after: string }) | undefined
  /** Notes an appended entry's list, to become `latest` once its commit is seen. */
  appended(entry: { id: string; hash: string }, scope: string, list: SpendList): void
  /** The committed batches' listener: promotes the committed entries. */
  committed(events: readonly StoredEvent[]): void
}

/**
 * A fresh memory holding at most `capacity` scopes and as many uncommitted entries (a rolled-back
 * entry is forgotten when the bound is reached).
 * @example const memory = recordedSpendsMemory(); ctx.commits.add(memory.committed)
 */
export function recordedSpendsMemory(capacity = 10_000): RecordedSpendsMemory {
  const latest = new Map<string, SpendList & { after: string }>()
  const pending = new Map<string, SpendList & { scope: string; after: string }>()
  const bounded = <V>(map: Map<string, V>, key: string, value: V): void => {
    map.delete(key)
    map.set(key, value)
    if (map.size > capacity) map.delete(map.keys().next().value as string)
  }
  return {
    latest: (scope) => latest.get(scope),
    appended: ({ id, hash }, scope, { spends, keys }) =>
      bounded(pending, id, { scope, after: hash, spends, keys }),
    committed(events) {
      for (const event of events) {
        if (tenantOfAuditStream(event.stream) === undefined) continue
        const entry = pending.get(event.id)
        if (!entry) continue
        pending.delete(event.id)
        bounded(latest, entry.scope, { after: entry.after, spends: entry.spends, keys: entry.keys })
      }
    },
  }
}
