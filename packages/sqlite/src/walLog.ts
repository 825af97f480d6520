import { closeSync, openSync } from 'node:fs'
import type { Database } from 'better-sqlite3'
import { type GroupSync, groupSync } from './groupSync.js'

/** Commits between checkpoints: bounds the WAL (a few MB) and the pause a checkpoint takes. */
const checkpointEvery = 1000

/**
 * The write-ahead log of a database SQLite writes with `synchronous = OFF` and no automatic
 * checkpoints: commits are made durable by group sync, and checkpoints run here, every
 * `checkpointEvery` commits, with syncing on (SQLite then syncs the WAL before copying it into the
 * database file and the file before the WAL is reused), so a checkpoint never loses a commit.
 * @example const log = walLog(db, filename); await log.sync.until(log.committed())
 */
export function walLog(db: Database, filename: string) {
  let fd: number | undefined
  let sinceCheckpoint = 0
  // Opened at the first sync: by then a commit has written the WAL file.
  const sync: GroupSync = groupSync(() => {
    fd ??= openSync(`${filename}-wal`, 'r')
    return fd
  })
  const checkpoint = () => {
    db.pragma('synchronous = FULL')
    try {
      db.pragma('wal_checkpoint(PASSIVE)')
    } finally {
      db.pragma('synchronous = OFF')
    }
  }
  return {
    sync,
    /** Counts a commit just applied and returns its ticket; checkpoints when one is due. */
    committed(): number {
      const ticket = sync.wrote()
      if (++sinceCheckpoint >= checkpointEvery) {
        sinceCheckpoint = 0
        checkpoint()
      }
      return ticket
    },
    /** Waits for the last sync; the final checkpoint of `db.close()` then syncs too. */
    async close() {
      await sync.until(sync.written).catch(() => {})
      db.pragma('synchronous = FULL')
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    },
  }
}
