import { existsSync, mkdirSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { isAgentWalletError } from '@agentwallet/core'
import { type LockHolder, lockFile } from '@agentwallet/sqlite'
import { CliError } from './cliError.js'
import { permissionProblem } from './permissionProblem.js'

export type DataDirLock = { release(): void }

export type HoldDataDirOptions = {
  /** A process that writes nothing (memory storage) holds a dir only if it exists, and never creates one. */
  create?: boolean | undefined
}

/**
 * Claims a data dir for this process before anything is written into it: `<dir>/agentwallet.lock`,
 * held by the operating system until release or exit (a `kill -9` frees it). A dir another process
 * holds is a CliError naming the dir and the holder's pid.
 * @example const lock = holdDataDir('./.agentwallet', 'serve'); try { … } finally { lock.release() }
 */
export function holdDataDir(dataDir: string, command: string, options: HoldDataDirOptions = {}): DataDirLock {
  if (options.create === false && !existsSync(dataDir)) return { release() {} }
  const filename = join(dataDir, 'agentwallet.lock')
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    return lockFile({ filename, command: `agentwallet ${command}` })
  } catch (error) {
    if (!isAgentWalletError(error, 'conflict'))
      throw permissionProblem(error) ?? permissionProblem(error, filename) ?? error
    const holder = (error.details as { holder?: LockHolder } | undefined)?.holder
    throw new CliError(
      `Data dir ${dataDir} is in use by ${describe(holder)}: stop it first, or use another --data-dir`,
    )
  }
}

/**
 * Holds each dir in order, all or none.
 * @example const lock = holdDataDirs([dataDir, join(dataDir, 'devnet')], 'serve')
 */
export function holdDataDirs(dirs: string[], command: string, options: HoldDataDirOptions = {}): DataDirLock {
  const held: DataDirLock[] = []
  const release = () => {
    for (const lock of held.splice(0).reverse()) lock.release()
  }
  try {
    for (const dir of dirs) held.push(holdDataDir(dir, command, options))
  } catch (error) {
    release()
    throw error
  }
  return { release }
}

function describe(holder: LockHolder | undefined): string {
  if (!holder) return 'another process'
  const where = holder.host === hostname() ? '' : ` on ${holder.host}`
  return `process ${holder.pid}${where} (${holder.command}, since ${holder.since})`
}
