import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { memoryStorage, type Storage } from '@agentwallet/core'
import { postgresStorage } from '@agentwallet/postgres'
import { sqliteStorage } from '@agentwallet/sqlite'
import { CliError } from './cliError.js'
import type { ServerConfig } from './loadConfig.js'
import { permissionProblem } from './permissionProblem.js'

/**
 * The configured Storage: SQLite in `<dataDir>/agentwallet.db` (default), memory, or Postgres
 * (`databaseUrl`, `databaseSchema`; migrated at open, shared by every replica).
 * @example const storage = await openStorage({ storage: 'sqlite', dataDir: './.agentwallet' })
 */
export async function openStorage(
  config: Pick<ServerConfig, 'storage' | 'dataDir'> &
    Partial<Pick<ServerConfig, 'databaseUrl' | 'databaseSchema'>>,
): Promise<Storage> {
  if (config.storage === 'memory') return memoryStorage()
  if (config.storage === 'postgres') return openPostgres(config.databaseUrl, config.databaseSchema)
  const filename = join(config.dataDir, 'agentwallet.db')
  try {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
    return sqliteStorage({ filename })
  } catch (error) {
    const denied = permissionProblem(error, filename)
    if (denied) throw denied
    const code = (error as { code?: string }).code
    throw new CliError(`Cannot open ${filename}${code ? ` (${code})` : ''}: ${(error as Error).message}`)
  }
}

async function openPostgres(url: string | undefined, schema: string | undefined): Promise<Storage> {
  if (!url) throw new CliError('--storage postgres needs --database-url (or AGENTWALLET_DATABASE_URL)')
  try {
    return await postgresStorage({ connectionString: url, schema })
  } catch (error) {
    // The URL may carry a password: name only the host.
    throw new CliError(`Cannot open Postgres at ${describeUrl(url)}: ${(error as Error).message}`)
  }
}

/** host:port/database of a connection URL, without credentials. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.host}${parsed.pathname}`
  } catch {
    return 'the configured database URL'
  }
}
