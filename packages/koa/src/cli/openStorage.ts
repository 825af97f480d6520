import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { memoryStorage, type Storage } from '@agentwallet/core'
import { sqliteStorage } from '@agentwallet/sqlite'
import { CliError } from './cliError.js'

/**
 * The configured Storage: SQLite in `<dataDir>/agentwallet.db` (default) or memory.
 * @example const storage = openStorage({ storage: 'sqlite', dataDir: './.agentwallet' })
 */
export function openStorage(config: { storage: 'sqlite' | 'memory'; dataDir: string }): Storage {
  if (config.storage === 'memory') return memoryStorage()
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const filename = join(config.dataDir, 'agentwallet.db')
  try {
    return sqliteStorage({ filename })
  } catch (error) {
    const code = (error as { code?: string }).code
    throw new CliError(`Cannot open ${filename}${code ? ` (${code})` : ''}: ${(error as Error).message}`)
  }
}
