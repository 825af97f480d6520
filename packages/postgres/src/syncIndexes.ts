import type { ClientBase } from 'pg'
import { type IndexDefinition, indexPrefix } from './indexDefinitions.js'
import { sqlIdent } from './sqlText.js'

export type SyncIndexesReturnType = { created: string[]; dropped: string[] }

/**
 * Makes the schema's own indexes exactly `definitions`: creates the missing, drops the stale.
 * Runs with every `migrate`, so a release that indexes a new field needs no hand-written migration.
 * @example await syncIndexes(client, 'agentwallet', indexDefinitions(table, storageSchema))
 */
export const syncIndexes = async (
  client: ClientBase,
  schema: string,
  definitions: readonly IndexDefinition[],
): Promise<SyncIndexesReturnType> => {
  const tables = new Set(definitions.map((definition) => definition.table))
  const wanted = new Map(definitions.map((definition) => [definition.name, definition]))
  const { rows } = await client.query<{ indexname: string }>(
    'SELECT indexname FROM pg_indexes WHERE schemaname = $1',
    [schema],
  )
  const existing = rows.map((row) => row.indexname).filter((name) => name.startsWith(indexPrefix))
  const dropped = existing.filter((name) => !wanted.has(name))
  for (const name of dropped) await client.query(`DROP INDEX IF EXISTS ${sqlIdent(schema)}.${sqlIdent(name)}`)
  const created = [...wanted.keys()].filter((name) => !existing.includes(name))
  for (const name of created) await client.query(wanted.get(name)!.sql)
  if (created.length > 0) await client.query(`ANALYZE ${[...tables].join(', ')}`)
  return { created, dropped }
}
