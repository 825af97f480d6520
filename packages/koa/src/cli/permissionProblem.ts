import { userInfo } from 'node:os'
import { CliError } from './cliError.js'

const deniedCodes = new Set(['EACCES', 'EPERM', 'EROFS'])

/**
 * A CliError naming `path` for a file system or SQLite error that means this user may not open or
 * write it (EACCES, EPERM, EROFS, SQLITE_CANTOPEN, SQLITE_READONLY); undefined for any other error.
 * `path` defaults to the one Node's error carries.
 * @example throw permissionProblem(error, filename) ?? error
 */
export function permissionProblem(error: unknown, path?: string): CliError | undefined {
  const { code, path: errorPath } = (error ?? {}) as { code?: unknown; path?: unknown }
  const where = path ?? (typeof errorPath === 'string' ? errorPath : undefined)
  if (typeof code !== 'string' || where === undefined) return undefined
  const sqlite = code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY')
  if (!deniedCodes.has(code) && !sqlite) return undefined
  return new CliError(
    `Cannot open ${where} (${code}): a permissions problem — user ${currentUser()} must be able to read and write it and its directory${sqlite ? ' (and the directory must exist)' : ''}; fix the owner or mode, or choose another --data-dir`,
  )
}

function currentUser(): string {
  try {
    return userInfo().username
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`
  }
}
