import type { Database } from 'better-sqlite3'
import { collectionTable } from './sqlText.js'

/** The tables of the collections a database holds: a read of a collection without one finds nothing. */
export type CollectionTables = {
  has(collection: string): boolean
  /** Creates the table if missing (inside the caller's SQL transaction); `created` records it once committed. */
  ensure(collection: string): void
  created(collection: string): void
}

const prefix = 'c_'

/** SQL that creates a collection's table: the record's id, and its JSON. */
export const createCollectionTable = (collection: string): string =>
  `CREATE TABLE IF NOT EXISTS ${collectionTable(collection)} (
    id TEXT PRIMARY KEY NOT NULL,
    data TEXT NOT NULL CHECK (json_valid(data))
  )`

/**
 * The collection tables of `db`, read once at open and kept as commits create more.
 * @example const tables = collectionTables(db); if (tables.has('wallets')) ...
 */
export function collectionTables(db: Database): CollectionTables {
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'c!_%' ESCAPE '!'")
    .pluck()
    .all() as string[]
  const known = new Set(names.map((name) => name.slice(prefix.length)))
  return {
    has: (collection) => known.has(collection),
    ensure(collection) {
      if (!known.has(collection)) db.exec(createCollectionTable(collection))
    },
    created(collection) {
      known.add(collection)
    },
  }
}
