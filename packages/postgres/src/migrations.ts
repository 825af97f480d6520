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
  {
    version: 2,
    name: 'shared token buckets of the HTTP rate limits',
    // One row per bucket key. `full_at` is when the bucket is full again: a row past it says nothing a
    // missing row would not, so the prune deletes by it without an index (the table holds only keys
    // active in the last few seconds; unindexed, each take's UPDATE can stay HOT). UNLOGGED: a take
    // writes no WAL and its commit waits for no flush; a crash or a failover empties the table, which
    // only refills every bucket — harmless for a rate limit.
    sql: (schema) => `
      CREATE UNLOGGED TABLE ${schema}.rate_buckets (
        key text COLLATE "C" PRIMARY KEY,
        tokens double precision NOT NULL,
        updated_at timestamptz NOT NULL,
        full_at timestamptz NOT NULL,
        granted boolean NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'event keys and times, indexed',
    // `readEvents(stream, { key })` reads this table's primary key, not the stream. The audit trail's
    // entries written before keys get theirs from their JSON: core's `auditEventKeys` (kind, wallet, approval).
    sql: (schema) => `
      CREATE TABLE ${schema}.event_keys (
        stream text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        PRIMARY KEY (stream, key, seq)
      );
      CREATE INDEX events_by_time ON ${schema}.events (stream, timestamp, seq);
      INSERT INTO ${schema}.event_keys (stream, key, seq)
        SELECT stream, 'kind:' || (data->>'kind'), seq FROM ${schema}.events
        WHERE stream LIKE 'audit:%' AND data->>'kind' IS NOT NULL
      UNION
        SELECT stream, 'walletId:' || (data->'subjects'->>'walletId'), seq FROM ${schema}.events
        WHERE stream LIKE 'audit:%' AND data->'subjects'->>'walletId' IS NOT NULL
      UNION
        SELECT stream, 'approvalId:' || (data->'subjects'->>'approvalId'), seq FROM ${schema}.events
        WHERE stream LIKE 'audit:%' AND data->'subjects'->>'approvalId' IS NOT NULL;
    `,
  },
]
