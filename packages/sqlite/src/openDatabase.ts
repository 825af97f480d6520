import { BaseError } from '@agentwallet/core'
import Database from 'better-sqlite3'

export type OpenDatabaseParameters = {
  filename: string
  /**
   * `full` (default) syncs the WAL on every commit; `normal` may lose the last commits on power loss,
   * never on a crash; `off` leaves syncing to the caller (group commit: see groupSync).
   */
  synchronous?: 'full' | 'normal' | 'off' | undefined
}

const isBusy = (error: unknown) =>
  error instanceof Error && ['SQLITE_BUSY', 'SQLITE_LOCKED'].includes((error as { code?: string }).code ?? '')

/**
 * Opens a database file in WAL mode, holding it exclusively: a second process (or a second handle
 * in this one) fails to open it instead of racing this one's in-process locks.
 * @example const db = openDatabase({ filename: './data/agentwallet.db' })
 */
export const openDatabase = ({
  filename,
  synchronous = 'full',
}: OpenDatabaseParameters): Database.Database => {
  // No busy wait: the holder keeps its lock until it closes, so waiting would only delay the error.
  const db = new Database(filename, { timeout: 0 })
  try {
    // Exclusive before WAL: SQLite then keeps the WAL index in heap memory, not a shared -shm file,
    // and holds the file lock from the first write until close.
    db.pragma('locking_mode = EXCLUSIVE')
    db.pragma('journal_mode = WAL')
    db.pragma(`synchronous = ${synchronous.toUpperCase()}`)
    db.pragma('foreign_keys = ON')
    // Take the write lock now, so a second opener fails here and not at its first commit.
    db.exec('BEGIN IMMEDIATE; COMMIT')
    return db
  } catch (error) {
    db.close()
    if (isBusy(error)) {
      throw new BaseError('internal', `Database "${filename}" is in use by another process`, {
        details: { filename, reason: 'database_locked' },
        cause: error,
      })
    }
    throw error
  }
}
