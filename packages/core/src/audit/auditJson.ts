/**
 * The trail's JSON form of an engine input: a bigint becomes `{ "$bigint": "<decimal>" }`, a Date
 * its ISO string, `undefined` members go. `fromAuditJson` turns the bigints back, so a recorded
 * intent re-runs through the pure engine exactly as it was judged.
 * @example toAuditJson({ amount: 5n }) // { amount: { $bigint: '5' } }
 */
export function toAuditJson(value: unknown): unknown {
  if (typeof value === 'bigint') return { $bigint: value.toString() }
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : toAuditJson(item)))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = toAuditJson(item)
  return out
}

/**
 * The text of `JSON.stringify(toAuditJson(value))`, written in one pass (no intermediate tree): what
 * a decision compares and records of each counted spend, every send, over the whole rule window.
 * @example auditJsonText({ amount: 5n }) // '{"amount":{"$bigint":"5"}}'
 */
export function auditJsonText(value: unknown): string {
  // JSON.stringify already writes a Date as its ISO string and leaves `undefined` out (null in a list).
  return JSON.stringify(value, (_key, item) =>
    typeof item === 'bigint' ? { $bigint: item.toString() } : item,
  )
}

/**
 * The inverse of {@link toAuditJson} for bigints (Dates stay ISO strings).
 * @example fromAuditJson({ amount: { $bigint: '5' } }) // { amount: 5n }
 */
export function fromAuditJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromAuditJson)
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  if (keys.length === 1 && keys[0] === '$bigint' && typeof record.$bigint === 'string')
    return BigInt(record.$bigint)
  return Object.fromEntries(keys.map((key) => [key, fromAuditJson(record[key])]))
}
