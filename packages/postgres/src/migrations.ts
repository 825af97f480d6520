/** One schema step. Versions only grow; a shipped migration is never edited, only followed. */
export type Migration = { version: number; name: string; sql: (schema: string) => string }

/**
 * The versioned schema, applied in order by `migrate`; `schema` is the quoted schema name.
 * Record indexes are not here: they follow `storageSchema` and are synced by every `migrate`.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'records, events and stream counters',
    sql: (schema) => `
      CREATE TABLE ${schema}.records (
        collection text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        data jsonb NOT NULL,
        PRIMARY KEY (collection, id)
      );
      CREATE TABLE ${schema}.streams (
        stream text COLLATE "C" PRIMARY KEY,
        last_seq bigint NOT NULL
      );
      CREATE TABLE ${schema}.events (
        stream text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        id text NOT NULL,
        type text NOT NULL,
        timestamp text NOT NULL,
        data jsonb,
        PRIMARY KEY (stream, seq)
      );
    `,
  },
]
