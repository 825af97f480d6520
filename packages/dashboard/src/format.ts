/** `0x1234…abcd` for narrow screens; the full address stays in the title and for screen readers. */
export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address
}

/** "23 h 59 min", "4 min 10 s", "expired": the time left until an ISO instant. */
export function timeLeft(iso: string, now: number): string {
  const ms = new Date(iso).getTime() - now
  if (ms <= 0) return 'expired'
  const s = Math.floor(ms / 1000)
  const d = Math.floor(s / 86_400)
  const h = Math.floor((s % 86_400) / 3600)
  const m = Math.floor((s % 3600) / 60)
  if (d > 0) return `${d} d ${h} h`
  if (h > 0) return `${h} h ${m} min`
  if (m > 0) return `${m} min ${s % 60} s`
  return `${s} s`
}

export function dateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })
}

/** Base units (decimal string) → a decimal string in whole units, exactly (no floats). */
export function formatUnits(raw: string, decimals: number): string {
  const negative = raw.startsWith('-')
  const digits = (negative ? raw.slice(1) : raw).padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

/** Compares two non-negative decimal strings exactly: negative, zero or positive, like a sort comparator. */
export function compareDecimals(a: string, b: string): number {
  const [aWhole = '0', aFraction = ''] = a.split('.')
  const [bWhole = '0', bFraction = ''] = b.split('.')
  const scale = Math.max(aFraction.length, bFraction.length)
  const difference =
    BigInt(aWhole + aFraction.padEnd(scale, '0')) - BigInt(bWhole + bFraction.padEnd(scale, '0'))
  return difference === 0n ? 0 : difference < 0n ? -1 : 1
}

/** A decimal string's share of another as 0…1, for bar widths only (display figures stay exact). */
export function ratio(part: string, whole: string): number {
  const w = Number(whole)
  if (!(w > 0)) return Number(part) > 0 ? 1 : 0
  return Math.min(1, Math.max(0, Number(part) / w))
}
