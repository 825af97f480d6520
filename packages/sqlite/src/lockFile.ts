import { hostname } from 'node:os'
import { BaseError } from '@agentwallet/core'
import Database from 'better-sqlite3'

/** Who holds a lock file: enough for an operator to find the process. */
export type LockHolder = { pid: number; host: string; command: string; since: string }

export type LockFileParameters = {
  /** The lock file: an SQLite file, created when missing and never deleted (deleting a lock file races). */
  filename: string
  /** What the holder is, shown to whoever is refused (e.g. `agentwallet serve`). */
  command: string
}

export type FileLock = { readonly holder: LockHolder; release(): void }

/** Connections holding a lock in this process: a collected connection would drop its lock. */
const held = new Set<Database.Database>()

const isBusy = (error: unknown) =>
  /^SQLITE_(BUSY|LOCKED)/.test((error as { code?: unknown } | undefined)?.code?.toString() ?? '')

/**
 * Holds `filename` for this process until `release()` or until the process ends, however it ends.
 * The lock is the operating system's (SQLite's fcntl lock, kept by a write transaction left open), so
 * a killed holder leaves nothing stale and a reused pid cannot keep it; readers still get in, to name
 * the holder. A second taker, in this process or another, gets `conflict` with `details.holder`.
 * @example const lock = lockFile({ filename: './data/agentwallet.lock', command: 'agentwallet serve' })
 */
export function lockFile({ filename, command }: LockFileParameters): FileLock {
  // No busy wait: a holder keeps the lock until it exits, so waiting would only delay the answer.
  const db = new Database(filename, { timeout: 0 })
  try {
    db.exec('BEGIN IMMEDIATE')
    db.exec(
      'CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, host TEXT NOT NULL, command TEXT NOT NULL, since TEXT NOT NULL)',
    )
    const holder: LockHolder = {
      pid: process.pid,
      host: hostname(),
      command,
      since: new Date().toISOString(),
    }
    db.prepare(
      'INSERT OR REPLACE INTO holder (id, pid, host, command, since) VALUES (1, @pid, @host, @command, @since)',
    ).run(holder)
    // Whoever reads the holder row does so in a moment: let the commit wait for them.
    db.pragma('busy_timeout = 2000')
    db.exec('COMMIT')
    db.pragma('busy_timeout = 0')
    // The lock proper: an open write transaction keeps SQLite's RESERVED lock, which admits readers
    // and no other writer. Another taker slipping in since the commit wins, and this one is refused.
    db.exec('BEGIN IMMEDIATE')
    held.add(db)
    return {
      holder,
      release() {
        if (held.delete(db)) db.close()
      },
    }
  } catch (error) {
    const holder = isBusy(error) ? readHolder(db) : undefined
    db.close()
    if (!isBusy(error)) throw error
    const by = holder ? `process ${holder.pid} on ${holder.host} (${holder.command})` : 'another process'
    throw new BaseError('conflict', `${filename} is held by ${by}`, {
      details: { filename, reason: 'locked', ...(holder ? { holder } : {}) },
      cause: error,
    })
  }
}

function readHolder(db: Database.Database): LockHolder | undefined {
  try {
    // The holder may be committing its row right now.
    db.pragma('busy_timeout = 2000')
    return db.prepare('SELECT pid, host, command, since FROM holder WHERE id = 1').get() as
      | LockHolder
      | undefined
  } catch {
    // No table yet: the holder has not written itself down.
    return undefined
  }
}
