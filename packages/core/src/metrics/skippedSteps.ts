import type { MetricFamily } from './metricFamily.js'

/**
 * The tracker's steps a failed chain call can skip for one pass; the next pass does them again.
 * A Record, so a step not listed here is a type error.
 */
const steps = {
  /** Reading the chain's fees to judge whether a submitted tx is stuck (`replaceStuck`). */
  replacement_fees: true,
  /** Reading the wallet's balance before signing a replacement. */
  replacement_balance: true,
  /** Broadcasting a replacement, committed already. */
  replacement_broadcast: true,
  /** Broadcasting again a tx a reorg took out of its block (`sendReorgedAgain`). */
  reorg_rebroadcast: true,
  /** Re-deriving a wallet's next nonce from the node after a reorg. */
  reorg_next_nonce: true,
} as const

export type SkippedStep = keyof typeof steps

/** This process's count of tracker steps skipped, by chain and step. */
export type SkippedSteps = {
  /** One more skip of `step` on `chain`. */
  count(step: SkippedStep, chain: string): void
  /** How many so far (tests, and `families`). */
  total(step: SkippedStep, chain: string): number
  /** `agentwallet_tracker_steps_skipped_total{chain,step}`. */
  families(): MetricFamily[]
}

/**
 * Counts the tracker's steps that a failed chain call skipped (no label but chain and step). Every
 * step of every configured chain starts at 0, so a rate is defined from the first scrape.
 * @example const skipped = skippedSteps(['devnet']); skipped.count('replacement_fees', 'devnet')
 */
export function skippedSteps(chains: readonly string[]): SkippedSteps {
  const key = (step: SkippedStep, chain: string) => `${chain}\u0000${step}`
  const counts = new Map<string, { chain: string; step: SkippedStep; value: number }>()
  for (const chain of chains)
    for (const step of Object.keys(steps) as SkippedStep[])
      counts.set(key(step, chain), { chain, step, value: 0 })
  return {
    count(step, chain) {
      const entry = counts.get(key(step, chain)) ?? { chain, step, value: 0 }
      entry.value++
      counts.set(key(step, chain), entry)
    },
    total: (step, chain) => counts.get(key(step, chain))?.value ?? 0,
    families: () => [
      {
        name: 'agentwallet_tracker_steps_skipped_total',
        help: 'Tracker steps this process skipped because the chain failed the call (no answer, a rate limit, a refusal), by chain and step; each is done again on a later pass. Per process: sum across replicas.',
        type: 'counter',
        samples: [...counts.values()].map(({ chain, step, value }) => ({ labels: { chain, step }, value })),
      },
    ],
  }
}
