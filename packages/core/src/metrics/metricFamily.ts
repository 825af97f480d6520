/**
 * One metric in the Prometheus data model: a name, its help text, its type and labelled samples.
 * Neutral on purpose, so an in-process user can hand it to any exporter (the Koa edge renders it
 * as the text exposition format).
 */
export type MetricFamily = {
  name: string
  help: string
  type: 'counter' | 'gauge' | 'histogram'
  samples: MetricSample[]
}

export type MetricSample = {
  /** Appended to the family's name: `_bucket`, `_sum` or `_count` for a histogram's series. */
  suffix?: string | undefined
  /** Low-cardinality labels only (chain, status, kind, route template): never ids, keys or addresses. */
  labels?: Readonly<Record<string, string>> | undefined
  value: number
}
