import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { MetricFamily } from '@agentwallet/core'

const resolutionMs = 20

export type ProcessMetrics = {
  families(): MetricFamily[]
  /** Stops the event-loop delay monitor. */
  stop(): void
}

/**
 * This process's uptime, memory and event-loop delay. The delay comes from
 * `perf_hooks.monitorEventLoopDelay` (a libuv timer every 20 ms that does not keep the process
 * alive) and is reset at each read, so it covers the time since the previous scrape.
 * @example const process = processMetrics(); process.families()
 */
export function processMetrics(): ProcessMetrics {
  const delay = monitorEventLoopDelay({ resolution: resolutionMs })
  delay.enable()
  const gauge = (name: string, help: string, value: number): MetricFamily => ({
    name,
    help,
    type: 'gauge',
    samples: [{ value }],
  })
  return {
    families() {
      // The histogram records each timer interval; the lag is what exceeds the resolution.
      const seconds = (nanoseconds: number) =>
        delay.count > 0 ? Math.max(0, nanoseconds - resolutionMs * 1e6) / 1e9 : 0
      const lag = {
        p50: seconds(delay.percentile(50)),
        p99: seconds(delay.percentile(99)),
        max: seconds(delay.max),
      }
      delay.reset()
      const memory = process.memoryUsage()
      return [
        gauge(
          'process_start_time_seconds',
          'Start time of this process since the Unix epoch, in seconds.',
          Math.round(performance.timeOrigin) / 1000,
        ),
        gauge('agentwallet_process_uptime_seconds', 'Seconds since this process started.', process.uptime()),
        gauge('process_resident_memory_bytes', 'Resident memory of this process, in bytes.', memory.rss),
        gauge('nodejs_heap_used_bytes', 'V8 heap in use by this process, in bytes.', memory.heapUsed),
        gauge(
          'nodejs_eventloop_lag_p50_seconds',
          'Median event-loop delay of this process since the previous scrape of this replica.',
          lag.p50,
        ),
        gauge(
          'nodejs_eventloop_lag_p99_seconds',
          '99th percentile event-loop delay of this process since the previous scrape of this replica.',
          lag.p99,
        ),
        gauge(
          'nodejs_eventloop_lag_max_seconds',
          'Largest event-loop delay of this process since the previous scrape of this replica.',
          lag.max,
        ),
      ]
    },
    stop: () => delay.disable(),
  }
}
