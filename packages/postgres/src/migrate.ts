import { BaseError, storageSchema } from '@agentwallet/core'
import pg from 'pg'
import { connectionConfig, type PostgresConnectionOptions } from './connectionConfig.js'
import { indexDefinitions } from './indexDefinitions.js'
import { lockId } from './lockId.js'
import { migrations as defaultMigrations, type Migration } from './migrations.js'
import { sqlIdent } from './sqlText.js'
import { type SyncIndexesReturnType, syncIndexes } from './syncIndexes.js'
import { syncTables } from './syncTables.js'
import { tables } from './tables.js'

export type MigrateOptions = PostgresConnectionOptions & {
  /** The Postgres schema holding the tables; created if missing. Default `agentwallet`. */
  schema?: string | undefined
  /** Collections and fields to index. Default core's `storageSchema`. */
  indexes?: Record<string, { indexes: readonly string[] }> | undefined
}

export type MigrateReturnType = {
  from: number
  to: number
  applied: number[]
  indexes: SyncIndexesReturnType
}

/** The default Postgres schema of the storage's tables. */
export const defaultSchema = 'agentwallet'

/**
 * Brings a schema up to date on an open client: versioned migrations, then the record indexes.
 * Holds an advisory lock throughout, so replicas starting together migrate one after another.
 * @example await migrateClient(client, { schema: 'agentwallet' })
 */
export const migrateClient = async (
  client: pg.ClientBase,
  options: Pick<MigrateOptions, 'schema' | 'indexes'> = {},
  migrations: readonly Migration[] = defaultMigrations,
): Promise<MigrateReturnType> => {
  const schema = options.schema ?? defaultSchema
  const quoted = sqlIdent(schema)
  const lock = lockId(schema, 'migrate', '')
  await client.query('SELECT pg_advisory_lock($1)', [lock])
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`)
    await client.query(`CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const current = async () =>
      (
        await client.query<{ version: number }>(
          `SELECT coalesce(max(version), 0)::int AS version FROM ${quoted}.schema_migrations`,
        )
      ).rows[0]!.version
    const from = await current()
    const latest = migrations.reduce((most, migration) => Math.max(most, migration.version), 0)
    // A schema written by a newer release may hold data this code would misread; refuse to touch it.
    if (from > latest) {
      throw new BaseError(
        'internal',
        `Database schema version ${from} is newer than this release knows (${latest})`,
        {
          details: { schema, version: from, latest },
        },
      )
    }
    const applied: number[] = []
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= from) continue
      await client.query('BEGIN')
      try {
        await client.query(migration.sql(quoted))
        await client.query(`INSERT INTO ${quoted}.schema_migrations (version, name) VALUES ($1, $2)`, [
          migration.version,
          migration.name,
        ])
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      }
      applied.push(migration.version)
    }
    const collections = options.indexes ?? storageSchema
    const layout = tables(schema, Object.keys(collections))
    await syncTables(client, layout)
    const indexes = await syncIndexes(client, schema, indexDefinitions(layout, collections))
    return { from, to: await current(), applied, indexes }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [lock])
  }
}

/**
 * Creates or upgrades the storage's tables and indexes; idempotent, safe to run from several
 * processes at once. `postgresStorage` runs it at start; a CLI can run it alone before a rollout.
 * @example await migrate({ connectionString: process.env.DATABASE_URL, schema: 'agentwallet' })
 */
export const migrate = async (options: MigrateOptions): Promise<MigrateReturnType> => {
  const client = new pg.Client(connectionConfig(options))
  await client.connect()
  try {
    return await migrateClient(client, options)
  } finally {
    await client.end()
  }
}
