import { screenedAddress } from './screenedAddress.js'
import type { ScreeningCall, ScreeningResult, ScreeningSource, ScreeningSubject } from './types.js'

export type CachedScreeningOptions = {
  /** How long an answer is reused (default 5 minutes). */
  ttlMs?: number | undefined
  /** Answers kept at most; the oldest goes first (default 10 000). */
  maxEntries?: number | undefined
  /** Clock (tests). */
  now?: (() => number) | undefined
}

/**
 * A source whose verdicts are reused for `ttlMs`, per tenant, chain and address (or whole call). Only
 * answers are kept: an outage throws every time, so a recovered source is asked again at once.
 * @example const blockaid = cachedScreening(blockaidScreening({ apiKey }), { ttlMs: 60_000 })
 */
export function cachedScreening(
  source: ScreeningSource,
  options: CachedScreeningOptions = {},
): ScreeningSource {
  const ttlMs = options.ttlMs ?? 5 * 60_000
  const maxEntries = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const answers = new Map<string, { at: number; result: Promise<ScreeningResult> }>()
  const cached = (key: string, ask: () => Promise<ScreeningResult>): Promise<ScreeningResult> => {
    const hit = answers.get(key)
    if (hit && now() - hit.at < ttlMs) return hit.result
    answers.delete(key)
    const result = ask()
    answers.set(key, { at: now(), result })
    // A failed ask is forgotten, so the next asks again.
    result.catch(() => answers.get(key)?.result === result && answers.delete(key))
    for (const [oldest] of answers) {
      if (answers.size <= maxEntries) break
      answers.delete(oldest)
    }
    return result
  }
  const screenCall = source.screenCall?.bind(source)
  return {
    name: source.name,
    screenAddress: (subject: ScreeningSubject) =>
      cached(JSON.stringify(['a', subject.tenantId, subject.chainId, subject.family, keyOf(subject)]), () =>
        source.screenAddress(subject),
      ),
    ...(screenCall
      ? {
          screenCall: (call: ScreeningCall) =>
            cached(
              JSON.stringify([
                'c',
                call.tenantId,
                call.chainId,
                call.from,
                call.to,
                call.value,
                call.data ?? '',
              ]),
              () => screenCall(call),
            ),
        }
      : {}),
  }
}

// One entry per address whatever its spelling, where the family says how spellings compare.
function keyOf(subject: ScreeningSubject): string {
  const checked = screenedAddress(subject.family, subject.address)
  return checked.ok ? checked.key : subject.address
}
