import { BaseError } from '@agentwallet/core'
import type { Database } from 'better-sqlite3'
import { migrations as defaultMigrations, type Migration } from './migrations.js'

export type MigrateReturnType = { from: number; to: number; applied: number[] }

/**
 * Applies the migrations a database has not seen yet, each in its own SQL transaction; idempotent.
 * @example migrate(db) // { from: 0, to: 1, applied: [1] } on a new file, { from: 1, to: 1, applied: [] } after
 */
export const migrate = (
  db: Database,
  migrations: readonly Migration[] = defaultMigrations,
): MigrateReturnType => {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`)
  const current = () =>
    (
      db.prepare('SELECT coalesce(max(version), 0) AS version FROM schema_migrations').get() as {
        version: number
      }
    ).version
  const from = current()
  const latest = migrations.reduce((most, migration) => Math.max(most, migration.version), 0)
  // A file written by a newer release may hold data this code would misread; refuse to touch it.
  if (from > latest) {
    throw new BaseError(
      'internal',
      `Database schema version ${from} is newer than this release knows (${latest})`,
      {
        details: { version: from, latest },
      },
    )
  }
  const applied: number[] = []
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    // Re-read inside the write transaction so two openers cannot both apply one step.
    db.transaction(() => {
      if (migration.version <= current()) return
      if (migration.run) migration.run(db)
      else db.exec(migration.sql)
      record.run(migration.version, migration.name, new Date().toISOString())
      applied.push(migration.version)
    }).immediate()
  }
  return { from, to: current(), applied }
}
