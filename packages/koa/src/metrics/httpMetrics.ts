import type { MetricFamily } from '@agentwallet/core'
import type { Middleware } from 'koa'
import type { AppState } from '../http/types.js'

export type HttpMetrics = {
  /** Times every request and counts it by method, route template and status class. */
  middleware: Middleware<AppState>
  families(): MetricFamily[]
}

/** Upper bounds (seconds) of the latency histogram's buckets: Prometheus client defaults. */
const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
// Any other method is folded into one value, so a client cannot mint label values.
const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
const perProcess = 'Counted by this process since it started: sum across replicas.'

type Latency = { labels: { method: string; route: string }; counts: number[]; sum: number; count: number }

/**
 * HTTP request metrics of this process, labelled by the matched route's template (`mountRoutes` sets
 * `ctx.state.route`), never the raw path: ids in a path do not create series. Requests no route
 * matched (404s, the dashboard's files) count as route `other`. Keep it outside `errorHandler` so it
 * sees the rendered status.
 * @example const http = httpMetrics(); app.use(http.middleware)
 */
export function httpMetrics(): HttpMetrics {
  const requests = new Map<string, { labels: Record<string, string>; value: number }>()
  const latency = new Map<string, Latency>()
  const middleware: Middleware<AppState> = async (ctx, next) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      const seconds = (performance.now() - started) / 1000
      const method = methods.has(ctx.method) ? ctx.method : 'OTHER'
      const route = ctx.state.route ?? 'other'
      const status = `${Math.floor(ctx.status / 100)}xx`
      const requestKey = `${method} ${route} ${status}`
      const counted = requests.get(requestKey) ?? { labels: { method, route, status }, value: 0 }
      counted.value++
      requests.set(requestKey, counted)
      const latencyKey = `${method} ${route}`
      const timed = latency.get(latencyKey) ?? {
        labels: { method, route },
        counts: buckets.map(() => 0),
        sum: 0,
        count: 0,
      }
      buckets.forEach((bound, index) => {
        if (seconds <= bound) timed.counts[index]!++
      })
      timed.sum += seconds
      timed.count++
      latency.set(latencyKey, timed)
    }
  }
  return {
    middleware,
    families: () => [
      {
        name: 'agentwallet_http_requests_total',
        help: `HTTP requests by method, route template and status class. ${perProcess}`,
        type: 'counter',
        samples: [...requests.values()].map(({ labels, value }) => ({ labels, value })),
      },
      {
        name: 'agentwallet_http_request_duration_seconds',
        help: `HTTP request latency by method and route template. ${perProcess}`,
        type: 'histogram',
        samples: [...latency.values()].flatMap(({ labels, counts, sum, count }) => [
          ...buckets.map((bound, index) => ({
            suffix: '_bucket',
            labels: { ...labels, le: String(bound) },
            value: counts[index]!,
          })),
          { suffix: '_bucket', labels: { ...labels, le: '+Inf' }, value: count },
          { suffix: '_sum', labels, value: sum },
          { suffix: '_count', labels, value: count },
        ]),
      },
    ],
  }
}
