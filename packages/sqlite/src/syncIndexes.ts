import type { Database } from 'better-sqlite3'
import { type IndexDefinition, indexPrefix } from './indexDefinitions.js'

export type SyncIndexesReturnType = { created: string[]; dropped: string[] }

/**
 * Makes the database's own indexes exactly `definitions`: creates the missing, drops the stale.
 * Runs at every open, so a release that indexes a new field needs no hand-written migration.
 * @example syncIndexes(db, indexDefinitions(storageSchema))
 */
export const syncIndexes = (db: Database, definitions: readonly IndexDefinition[]): SyncIndexesReturnType => {
  const wanted = new Map(definitions.map((definition) => [definition.name, definition]))
  return db
    .transaction(() => {
      const existing = (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as Array<{ name: string }>
      )
        .map((row) => row.name)
        .filter((name) => name.startsWith(indexPrefix))
      const dropped = existing.filter((name) => !wanted.has(name))
      for (const name of dropped) db.exec(`DROP INDEX "${name}"`)
      const created = [...wanted.keys()].filter((name) => !existing.includes(name))
      for (const name of created) db.exec(wanted.get(name)!.sql)
      return { created, dropped }
    })
    .immediate()
}
