import type { DevnetProvider } from './types.js'

/** A provider that mines on a timer, and the switch that stops it. */
export type IntervalMining = { provider: DevnetProvider; stop(): void }

/**
 * Answers `evm_setIntervalMining` (ms; 0 stops) itself, by sending `evm_mine` through `inner` on a
 * timer, instead of leaving the timer to EDR: each interval block is then a request like any other,
 * so a journaled provider records it with its timestamp and a restart replays the same blocks with
 * the same transactions in them. Everything else passes through.
 * @example const mining = withIntervalMining(journaled); await mining.provider.request({ method: 'evm_setIntervalMining', params: [1000] })
 */
export function withIntervalMining(inner: DevnetProvider): IntervalMining {
  let timer: ReturnType<typeof setTimeout> | undefined
  let intervalMs = 0

  function schedule() {
    // One block at a time: the next wait starts when the last block is mined, so a slow mine never piles up.
    timer = setTimeout(async () => {
      await inner.request({ method: 'evm_mine', params: [] }).catch(() => undefined)
      if (intervalMs > 0) schedule()
    }, intervalMs)
    timer.unref?.()
  }

  function stop() {
    intervalMs = 0
    clearTimeout(timer)
    timer = undefined
  }

  return {
    stop,
    provider: {
      async request(args) {
        if (args.method !== 'evm_setIntervalMining') return inner.request(args)
        const [ms] = Array.isArray(args.params) ? args.params : []
        const next = Number(ms)
        if (!Number.isFinite(next) || next < 0) {
          return inner.request(args) // EDR gives the invalid-params error
        }
        stop()
        intervalMs = next
        if (intervalMs > 0) schedule()
        return true
      },
    },
  }
}
