import type { MetricFamily, MetricSample } from '../metrics/metricFamily.js'
import type { ScreeningVerdict } from './types.js'

/** This process's count of screening answers by source and verdict, and of outages by source. */
export type ScreeningCounts = {
  verdict(source: string, verdict: ScreeningVerdict): void
  outage(source: string): void
  /** How many so far (tests, and `families`). */
  total(source: string, outcome: ScreeningVerdict | 'outage'): number
  /** `agentwallet_screening_verdicts_total{source,verdict}` and `agentwallet_screening_outages_total{source}`. */
  families(): MetricFamily[]
}

/**
 * Counts what screening sources answered (no address, tenant or list in a label). Every configured
 * source starts at 0 for each verdict and outages, so a rate is defined from the first scrape.
 * @example const counts = screeningCounts(['lists']); counts.verdict('lists', 'block')
 */
export function screeningCounts(sources: readonly string[]): ScreeningCounts {
  const outcomes = ['clear', 'warn', 'block', 'outage'] as const
  const counts = new Map<string, number>()
  const key = (source: string, outcome: string) => `${source}\u0000${outcome}`
  for (const source of sources) for (const outcome of outcomes) counts.set(key(source, outcome), 0)
  const add = (source: string, outcome: string) =>
    counts.set(key(source, outcome), (counts.get(key(source, outcome)) ?? 0) + 1)
  const samples = (wanted: (outcome: string) => boolean): MetricSample[] =>
    [...counts].flatMap(([entry, value]) => {
      const [source = '', outcome = ''] = entry.split('\u0000')
      if (!wanted(outcome)) return []
      const labels: Record<string, string> = outcome === 'outage' ? { source } : { source, verdict: outcome }
      return [{ labels, value }]
    })
  return {
    verdict: (source, verdict) => add(source, verdict),
    outage: (source) => add(source, 'outage'),
    total: (source, outcome) => counts.get(key(source, outcome)) ?? 0,
    families: () => [
      {
        name: 'agentwallet_screening_verdicts_total',
        help: 'Screening answers this process received, by source and verdict (clear, warn, block). Per process: sum across replicas.',
        type: 'counter',
        samples: samples((outcome) => outcome !== 'outage'),
      },
      {
        name: 'agentwallet_screening_outages_total',
        help: 'Screening asks a source could not answer (never counted as clear), by source. Per process: sum across replicas.',
        type: 'counter',
        samples: samples((outcome) => outcome === 'outage'),
      },
    ],
  }
}
