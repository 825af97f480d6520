import type { ScreeningVerdict } from '@agentwallet/core'

/**
 * Blockaid's `result_type` as our verdict: Malicious → block, Warning → warn, Benign → clear.
 * `Error` (and anything else) is no verdict: the caller reports an outage, never "clear".
 * @example verdictOf('Malicious') // 'block'
 */
export function verdictOf(resultType: string | undefined): ScreeningVerdict | undefined {
  if (resultType === 'Malicious') return 'block'
  if (resultType === 'Warning') return 'warn'
  if (resultType === 'Benign') return 'clear'
  return undefined
}

/**
 * The reasons a verdict gives: Blockaid's classification and reason (transaction scans) and the
 * description of each feature of the verdict's own kind (a benign answer lists none).
 * @example reasonsOf({ features: [{ type: 'Malicious', description: 'Known drainer' }] }, 'block') // ['Known drainer']
 */
export function reasonsOf(
  answer: { features?: unknown; reason?: string | undefined; classification?: string | undefined },
  verdict: ScreeningVerdict,
): string[] {
  if (verdict === 'clear') return []
  const kind = verdict === 'block' ? 'Malicious' : 'Warning'
  const headline = [answer.classification, answer.reason].filter((text) => text && text.length > 0).join(': ')
  const features = Array.isArray(answer.features) ? answer.features : []
  const described = features.flatMap((feature: unknown) => {
    if (typeof feature === 'string') return [feature]
    if (typeof feature !== 'object' || feature === null) return []
    const { type, description } = feature as { type?: unknown; description?: unknown }
    return typeof description === 'string' && (type === undefined || type === kind) ? [description] : []
  })
  const reasons = [...(headline ? [headline] : []), ...described].map((text) => text.slice(0, 300))
  return reasons.length > 0 ? reasons : [`Blockaid: ${kind}`]
}
