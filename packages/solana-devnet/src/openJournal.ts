import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types'
import type { ChainJournalEntry } from './createSolanaChain.js'

export type Journal = {
  readonly entries: readonly ChainJournalEntry[]
  append(entry: ChainJournalEntry): void
}

/**
 * An append-only JSON-lines file of what changed the chain (landed transactions, faucet ones included,
 * and empty blocks). LiteSVM can snapshot its accounts but not the devnet's ledger, so replaying this
 * into a fresh genesis is how balances and history survive a restart, as on the EVM devnet.
 */
export function openJournal(path: string): Journal {
  const lines = existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
    : []
  const entries: ChainJournalEntry[] = []
  for (const [index, line] of lines.entries()) {
    try {
      entries.push(parseJsonWithBigInts(line) as ChainJournalEntry)
    } catch (error) {
      // Only the last line can be torn (a crash mid-append); anything else is corruption.
      if (index !== lines.length - 1)
        throw new Error(`solana devnet journal ${path} is corrupt at line ${index + 1}`, { cause: error })
    }
  }
  writeFileSync(path, entries.map((entry) => `${stringifyJsonWithBigInts(entry)}\n`).join(''))
  return {
    entries,
    append(entry) {
      appendFileSync(path, `${stringifyJsonWithBigInts(entry)}\n`)
      entries.push(entry)
    },
  }
}
