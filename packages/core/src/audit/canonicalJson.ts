/**
 * The one text of a JSON value that every writer and verifier agrees on, to hash: object keys sorted
 * by UTF-16 code units, no whitespace, `undefined` members left out, numbers as JSON writes them
 * (RFC 8785 for the values the trail holds: strings, safe integers, booleans, null; no floats).
 * @example canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('Not a finite number')
    if (typeof value === 'bigint') throw new TypeError('A bigint has no JSON form: encode it first')
    return JSON.stringify(value)
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`
  const members = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
  return `{${members.join(',')}}`
}
