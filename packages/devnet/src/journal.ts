import { appendFileSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs'

/** One state-changing request, with the timestamp of the first block it mined (if it mined any). */
export type JournalEntry = {
  method: string
  params: readonly unknown[]
  /** Timestamp of the first block the request mined; replay pins it so block hashes match. */
  blockTimestamp?: number | undefined
  /** Transaction hash a send returned; replay checks it to catch divergence early. */
  result?: unknown
  /** Wall-clock seconds when recorded: after a restart the chain clock resumes from here. */
  wallClock: number
}

export type Journal = {
  readonly entries: readonly JournalEntry[]
  append(entry: JournalEntry): void
  /** Current size; pass it to {@link Journal.truncate} to undo everything appended since. */
  mark(): number
  truncate(mark: number): void
  clear(): void
}

/**
 * An append-only JSON-lines file of the requests that changed the chain. EDR cannot dump its state,
 * so replaying this journal into a fresh chain with the same genesis is how state survives a restart.
 */
export function openJournal(path: string): Journal {
  const lines = existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
    : []
  const entries: JournalEntry[] = []
  for (const [index, line] of lines.entries()) {
    try {
      entries.push(JSON.parse(line) as JournalEntry)
    } catch (error) {
      // Only the last line can be torn (a crash mid-append); anything else is corruption.
      if (index !== lines.length - 1)
        throw new Error(`devnet journal ${path} is corrupt at line ${index + 1}`, { cause: error })
    }
  }
  writeFileSync(path, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''))
  return {
    entries,
    append(entry) {
      appendFileSync(path, `${JSON.stringify(entry)}\n`)
      entries.push(entry)
    },
    mark() {
      return statSync(path).size
    },
    truncate(mark) {
      truncateSync(path, mark)
      const kept = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '').length
      entries.length = kept
    },
    clear() {
      writeFileSync(path, '')
      entries.length = 0
    },
  }
}
