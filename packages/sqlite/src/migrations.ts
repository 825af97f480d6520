import type { Database } from 'better-sqlite3'
import { createCollectionTable } from './collectionTables.js'
import { collectionTable } from './sqlText.js'

/**
 * One schema step: SQL, or a function for a step that depends on the data. Versions only grow; a
 * shipped migration is never edited, only followed.
 */
export type Migration = { version: number; name: string } & (
  | { sql: string; run?: undefined }
  | { run: (db: Database) => void; sql?: undefined }
)

/**
 * Moves each collection out of the one `records` table (and its partial indexes, one set per
 * collection) into a table of its own; the indexes are then made per table by `syncIndexes`.
 */
function tablePerCollection(db: Database): void {
  const collections = db.prepare('SELECT DISTINCT collection FROM records').pluck().all() as string[]
  for (const collection of collections) {
    db.exec(createCollectionTable(collection))
    db.prepare(
      `INSERT INTO ${collectionTable(collection)} (id, data) SELECT id, data FROM records WHERE collection = ?`,
    ).run(collection)
  }
  db.exec('DROP TABLE records')
  // Statistics of the old table would mislead the planner about the new ones (ANALYZE remakes them).
  const stat = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get()
  if (stat) db.exec("DELETE FROM sqlite_stat1 WHERE tbl = 'records'")
}

/**
 * The versioned schema of the database file, applied in order by `migrate`.
 * Indexes are not here: they follow `storageSchema` and are synced at every open (`syncIndexes`).
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'records and events',
    sql: `
      CREATE TABLE records (
        collection TEXT NOT NULL,
        id TEXT NOT NULL,
        data TEXT NOT NULL CHECK (json_valid(data)),
        PRIMARY KEY (collection, id)
      );
      CREATE TABLE events (
        stream TEXT NOT NULL,
        seq INTEGER NOT NULL,
        id TEXT NOT NULL,
        type TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        data TEXT,
        PRIMARY KEY (stream, seq)
      );
    `,
  },
  { version: 2, name: 'a table per collection', run: tablePerCollection },
  {
    version: 3,
    name: 'event keys and times, indexed',
    // An event's keys (`EventInput.keys`) are rows here, so `readEvents(stream, { key })` reads an
    // index, not the stream. The audit trail's entries written before keys get theirs from their
    // JSON: core's `auditEventKeys` (kind, wallet, approval).
    sql: `
      CREATE TABLE event_keys (
        stream TEXT NOT NULL,
        key TEXT NOT NULL,
        seq INTEGER NOT NULL,
        PRIMARY KEY (stream, key, seq)
      ) WITHOUT ROWID;
      CREATE INDEX events_by_time ON events (stream, timestamp, seq);
      INSERT OR IGNORE INTO event_keys (stream, key, seq)
        SELECT stream, 'kind:' || json_extract(data, '$.kind'), seq FROM events
        WHERE stream LIKE 'audit:%' AND json_extract(data, '$.kind') IS NOT NULL;
      INSERT OR IGNORE INTO event_keys (stream, key, seq)
        SELECT stream, 'walletId:' || json_extract(data, '$.subjects.walletId'), seq FROM events
        WHERE stream LIKE 'audit:%' AND json_extract(data, '$.subjects.walletId') IS NOT NULL;
      INSERT OR IGNORE INTO event_keys (stream, key, seq)
        SELECT stream, 'approvalId:' || json_extract(data, '$.subjects.approvalId'), seq FROM events
        WHERE stream LIKE 'audit:%' AND json_extract(data, '$.subjects.approvalId') IS NOT NULL;
    `,
  },
]
