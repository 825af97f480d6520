import { migrate } from '@agentwallet/postgres'
import { CliError } from './cliError.js'
import type { ServerConfig } from './loadConfig.js'
import { describeUrl } from './openStorage.js'
import type { Print } from './serve.js'

/**
 * `agentwallet migrate`: brings the Postgres schema up to date and exits, so a rollout can migrate
 * once before replicas start (they migrate at start too; migrations hold a lock and are idempotent).
 * @example await migrateCommand({ ...config, storage: 'postgres', databaseUrl }, console.log)
 */
export async function migrateCommand(config: ServerConfig, print: Print): Promise<void> {
  if (config.storage !== 'postgres' || !config.databaseUrl)
    throw new CliError(
      'migrate is for Postgres: pass --storage postgres --database-url postgres://… (SQLite migrates at open)',
    )
  const result = await migrate({ connectionString: config.databaseUrl, schema: config.databaseSchema })
  const where = `${describeUrl(config.databaseUrl)} schema ${config.databaseSchema ?? 'agentwallet'}`
  const { created, dropped } = result.indexes
  if (created.length + dropped.length > 0)
    print(`Indexes: ${created.length} created, ${dropped.length} dropped`)
  print(
    result.applied.length > 0
      ? `Migrated ${where} from version ${result.from} to ${result.to} (applied ${result.applied.join(', ')})`
      : `${where} is up to date (version ${result.to})`,
  )
}
