import type { ClientBase } from 'pg'
import type { Tables } from './tables.js'

/**
 * Gives each collection of the storage schema its own table, moving its rows out of the shared
 * `records` table (where a schema from before, or a collection newly added to the schema, left
 * them), in one SQL transaction. Runs with every `migrate`, under its lock; idempotent.
 * @example await syncTables(client, tables(schema, Object.keys(storageSchema)))
 */
export const syncTables = async (client: ClientBase, layout: Tables): Promise<void> => {
  await client.query('BEGIN')
  try {
    for (const [collection, table] of layout.own) {
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${table} (id text COLLATE "C" PRIMARY KEY, data jsonb NOT NULL)`,
      )
      const moved = await client.query(
        `WITH moved AS (DELETE FROM ${layout.records} WHERE collection = $1 RETURNING id, data) ` +
          `INSERT INTO ${table} (id, data) SELECT id, data FROM moved ON CONFLICT (id) DO NOTHING`,
        [collection],
      )
      if ((moved.rowCount ?? 0) > 0) await client.query(`ANALYZE ${table}`)
    }
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  }
}
