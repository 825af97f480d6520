/** One schema step. Versions only grow; a shipped migration is never edited, only followed. */
export type Migration = { version: number; name: string; sql: string }

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
]
