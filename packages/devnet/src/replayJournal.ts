import type { JournalEntry } from './journal.js'
import type { DevnetProvider } from './types.js'

/**
 * Re-applies journaled requests to a fresh chain with the original genesis. Pinning each block's
 * timestamp makes blocks, hashes and receipts identical to the first run; a divergence is an error.
 */
export async function replayJournal(
  provider: DevnetProvider,
  entries: readonly JournalEntry[],
): Promise<void> {
  let lastBlockWallClock: number | undefined
  for (const [index, entry] of entries.entries()) {
    if (entry.blockTimestamp !== undefined) {
      await provider.request({ method: 'evm_setNextBlockTimestamp', params: [entry.blockTimestamp] })
      lastBlockWallClock = entry.wallClock
    }
    const result = await provider.request({ method: entry.method, params: entry.params })
    if (entry.result !== undefined && result !== entry.result) {
      throw new Error(
        `devnet journal replay diverged at entry ${index + 1} (${entry.method}): ${result} ≠ ${entry.result}`,
      )
    }
  }
  // The chain clock resumes from where it stood when the last block was mined, plus the downtime,
  // so time advanced with evm_increaseTime is kept and timestamps keep following the wall clock.
  if (lastBlockWallClock !== undefined) {
    const downtime = Math.floor(Date.now() / 1000) - lastBlockWallClock
    if (downtime > 0) await provider.request({ method: 'evm_increaseTime', params: [downtime] })
  }
}
